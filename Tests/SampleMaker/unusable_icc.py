#!/usr/bin/env python3
"""Writes Samples/icc/: small RGB JPEGs and HEICs (Pillow's libjpeg, pillow-heif's libheif +
x265) whose embedded ICC profile lcms cannot use as an input profile. Each profile is the
Display P3 profile of Samples/orientation-6-gps-p3.jpg with its device class changed:
  link  (device link)   -> libvips: "Couldn't link the profiles"
  nmcl  (named colour)  -> libvips: "Wrong input color space on transform"
The pixels are a flat (200, 30, 30) with a (30, 30, 200) square top-left, so a decode that
falls back to no colour management shows those values. Not run by the build; needs Pillow and
pillow-heif (e.g. the benchmark venv: .build/bench/venv/bin/python).
Usage: unusable_icc.py [OUT_DIR]
"""
import os
import sys

from PIL import Image
import pillow_heif

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "Samples", "icc")
os.makedirs(out, exist_ok=True)


def icc_of_jpeg(path):
    """The ICC profile of a JPEG: its APP2 ICC_PROFILE chunks in order (one here)."""
    data = open(path, "rb").read()
    offset, chunks = 2, []
    while offset + 4 <= len(data) and data[offset] == 0xFF:
        marker = data[offset + 1]
        length = int.from_bytes(data[offset + 2:offset + 4], "big")
        payload = data[offset + 4:offset + 2 + length]
        if marker == 0xE2 and payload.startswith(b"ICC_PROFILE\0"):
            chunks.append(payload[14:])
        if marker == 0xDA:
            break
        offset += 2 + length
    return b"".join(chunks)


profile = icc_of_jpeg(os.path.join(here, "..", "..", "Samples", "orientation-6-gps-p3.jpg"))
assert profile[36:40] == b"acsp", "not an ICC profile"

image = Image.new("RGB", (64, 48), (200, 30, 30))
image.paste((30, 30, 200), (0, 0, 16, 16))
pillow_heif.register_heif_opener()
for device_class in (b"link", b"nmcl"):
    changed = bytearray(profile)
    changed[12:16] = device_class
    name = device_class.decode()
    image.save(os.path.join(out, f"{name}-profile.jpg"), quality=90, icc_profile=bytes(changed))
    image.save(os.path.join(out, f"{name}-profile.heic"), quality=90, icc_profile=bytes(changed))

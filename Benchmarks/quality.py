"""Side-by-side quality check for make bench: journal-media's and Pillow's fallback JPEGs
(1600 px box) against a careful reference made from the same file: full-size decode (no DCT
scaling), EXIF orientation applied, embedded ICC profile converted to sRGB with LittleCMS,
LANCZOS straight to the output size. Prints PSNR (dB, higher is closer) per group of inputs.

Usage: quality.py INPUT_DIR JM_OUT_DIR PILLOW_OUT_DIR
(journal-media writes NAME.fallback.jpg per input; Benchmarks/pillow_peer.py does too).
"""
import io
import math
import os
import sys

import numpy
from PIL import Image, ImageCms, ImageOps
import pillow_heif

pillow_heif.register_heif_opener()
SRGB = ImageCms.createProfile("sRGB")


def reference(path, size):
    with Image.open(path) as im:
        im = ImageOps.exif_transpose(im)
        profile = im.info.get("icc_profile")
        im = im.convert("RGB")
        if profile:
            source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            im = ImageCms.profileToProfile(im, source, SRGB, outputMode="RGB")
        return im.resize(size, Image.LANCZOS)


def psnr(a, b):
    diff = numpy.asarray(a, dtype=numpy.float64) - numpy.asarray(b, dtype=numpy.float64)
    mse = float(numpy.mean(diff * diff))
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def main():
    inputs, jm_dir, pil_dir = sys.argv[1:4]
    groups = {}
    for name in sorted(os.listdir(inputs)):
        if name.startswith("."):
            continue
        path = os.path.join(inputs, name)
        jm = Image.open(os.path.join(jm_dir, name + ".fallback.jpg")).convert("RGB")
        pil = Image.open(os.path.join(pil_dir, name + ".fallback.jpg")).convert("RGB")
        ref = reference(path, jm.size)
        if pil.size != jm.size:
            pil = pil.resize(jm.size, Image.LANCZOS)
        with Image.open(path) as im:
            tagged = "with ICC profile" if im.info.get("icc_profile") else "untagged"
        group = f"{name.rsplit('-', 1)[0]} ({tagged})"
        groups.setdefault(group, []).append((psnr(jm, ref), psnr(pil, ref)))
    print("| inputs | files | journal-media PSNR dB | Pillow PSNR dB |")
    print("|---|---:|---:|---:|")
    for group, rows in groups.items():
        jm = sum(r[0] for r in rows) / len(rows)
        pil = sum(r[1] for r in rows) / len(rows)
        print(f"| {group} | {len(rows)} | {jm:.1f} | {pil:.1f} |")


if __name__ == "__main__":
    main()

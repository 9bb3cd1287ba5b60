"""The Pillow peer: the same renditions as journal-media's defaults, the way a Python
backend would make them. Per file: open, draft mode (JPEG DCT scaling) to the largest
rendition, exif_transpose, thumbnail to 1600 (LANCZOS) saved as JPEG q85 4:2:0 (PNG
for a source with real transparency, as journal-media does), then thumbnail to 512 from that,
saved as WebP q80. HEIC through pillow-heif. A file Pillow cannot read is reported and skipped.

Usage: pillow_peer.py OUT_DIR JOBS FILE...   Prints one line: seconds and per-file latencies.
"""
import os
import time

from PIL import Image, ImageOps
import pillow_heif

from peer_pool import run

pillow_heif.register_heif_opener()
# Samsung's 200 MP HEICs (the heic class has one) are over Pillow's decompression-bomb limit
# (179 MP); a backend that takes phone photos raises it, as journal-media's grid limit does.
Image.MAX_IMAGE_PIXELS = 300_000_000


def convert_one(path, out_dir):
    start = time.perf_counter()
    name = os.path.basename(path)
    with Image.open(path) as im:
        im.draft("RGB", (1600, 1600))
        im = ImageOps.exif_transpose(im)
        # Equal work with journal-media: a source with real transparency keeps its alpha (PNG
        # fallback, WebP thumbnail with alpha); an opaque alpha channel is dropped.
        if im.mode in ("RGBA", "LA", "PA", "P") or "transparency" in im.info:
            im = im.convert("RGBA")
            if im.getchannel("A").getextrema()[0] == 255:
                im = im.convert("RGB")
        elif im.mode not in ("RGB", "L"):
            im = im.convert("RGB")
        fallback = im.copy()
        fallback.thumbnail((1600, 1600), Image.LANCZOS)
        if fallback.mode == "RGBA":
            fallback.save(os.path.join(out_dir, name + ".fallback.png"), "PNG", compress_level=6)
        else:
            fallback.save(os.path.join(out_dir, name + ".fallback.jpg"), "JPEG", quality=85, subsampling=2)
        thumb = fallback.copy()
        thumb.thumbnail((512, 512), Image.LANCZOS)
        thumb.save(os.path.join(out_dir, name + ".thumbnail.webp"), "WEBP", quality=80)
    return time.perf_counter() - start


if __name__ == "__main__":
    run(convert_one)

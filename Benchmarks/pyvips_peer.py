"""The pyvips peer: the same renditions as journal-media's defaults, made by a current libvips
(8.18, from the PyPI wheels `pyvips` + `pyvips-binary`; real_photos.sh installs them with
PKG_CONFIG=/bin/false so the wheel's libvips is loaded, not Debian's, and checks the version),
one libvips thread per process (VIPS_CONCURRENCY=1), 2 processes: what a sharp or pyvips user
runs today. Per file: thumbnail to 1600 (shrink-on-load, EXIF orientation, embedded profile
to sRGB) saved as JPEG q85 (PNG for a source with real transparency), then thumbnail_image to
512 saved as WebP q80 effort 2. A file libvips cannot read is reported and skipped.

Usage: pyvips_peer.py OUT_DIR JOBS FILE...   Prints one line: seconds and per-file latencies.
"""
import json
import os
import sys
import time
from multiprocessing import Pool

os.environ.setdefault("VIPS_CONCURRENCY", "1")
import pyvips  # noqa: E402

pyvips.cache_set_max(0)


def convert(args):
    path, out_dir = args
    try:
        return convert_one(path, out_dir)
    except Exception as error:  # a broken file fails alone, as in journal-media's batch
        print(f"{path}: {error}", file=sys.stderr)
        return 0.0


def convert_one(path, out_dir):
    start = time.perf_counter()
    name = os.path.basename(path)
    fallback = pyvips.Image.thumbnail(path, 1600, height=1600, size="down", export_profile="srgb")
    if fallback.hasalpha() and fallback.extract_band(fallback.bands - 1).min() < 255:
        fallback = fallback.copy_memory()
        fallback.pngsave(os.path.join(out_dir, name + ".fallback.png"), compression=6, strip=True)
    else:
        if fallback.hasalpha():
            fallback = fallback.flatten()
        fallback = fallback.copy_memory()
        fallback.jpegsave(os.path.join(out_dir, name + ".fallback.jpg"), Q=85, strip=True)
    thumb = fallback.thumbnail_image(512, height=512)
    thumb.webpsave(os.path.join(out_dir, name + ".thumbnail.webp"), Q=80, effort=2, strip=True)
    return time.perf_counter() - start


def main():
    out_dir, jobs, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    start = time.perf_counter()
    with Pool(jobs) as pool:
        latencies = pool.map(convert, [(f, out_dir) for f in files], chunksize=1)
    print(json.dumps({"seconds": time.perf_counter() - start, "latencies": latencies}))


if __name__ == "__main__":
    main()

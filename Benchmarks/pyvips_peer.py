"""The pyvips peer: the same renditions as journal-media's defaults, made by a current libvips
(8.18, from the PyPI wheels `pyvips` + `pyvips-binary`; real_photos.sh installs them with
PKG_CONFIG=/bin/false so the wheel's libvips is loaded, not Debian's, and checks the version),
one libvips thread per process (VIPS_CONCURRENCY=1), 2 processes: what a sharp or pyvips user
runs today. Per file: thumbnail to 1600 (shrink-on-load, EXIF orientation, embedded profile
to sRGB when the file has one) saved as JPEG q85 (PNG for a source with real transparency), then thumbnail_image to
512 saved as WebP q80 effort 2. A file libvips cannot read is reported and skipped: the
pyvips-binary wheel is built without an HEVC decoder (no libde265), so it reads no HEIC.

Usage: pyvips_peer.py OUT_DIR JOBS FILE...   Prints one line: seconds and per-file latencies.
"""
import os
import time

os.environ.setdefault("VIPS_CONCURRENCY", "1")
import pyvips  # noqa: E402

from peer_pool import run  # noqa: E402

pyvips.cache_set_max(0)


def convert_one(path, out_dir):
    start = time.perf_counter()
    name = os.path.basename(path)
    # Into memory first: thumbnail reads its source sequentially, once.
    # Only an image with an embedded profile is converted to sRGB, as sharp does: libvips 8.18's
    # thumbnail with export_profile also transforms untagged images (sRGB to sRGB), and building
    # that lcms transform costs ~45 ms per small JPEG, more than the rest of its conversion.
    tagged = "icc-profile-data" in pyvips.Image.new_from_file(path).get_fields()
    profile = {"export_profile": "srgb"} if tagged else {}
    fallback = pyvips.Image.thumbnail(path, 1600, height=1600, size="down", **profile).copy_memory()
    if fallback.hasalpha() and fallback.extract_band(fallback.bands - 1).min() < 255:
        fallback.pngsave(os.path.join(out_dir, name + ".fallback.png"), compression=6, strip=True)
    else:
        if fallback.hasalpha():
            fallback = fallback.flatten(background=[255, 255, 255]).copy_memory()
        fallback.jpegsave(os.path.join(out_dir, name + ".fallback.jpg"), Q=85, strip=True)
    thumb = fallback.thumbnail_image(512, height=512)
    thumb.webpsave(os.path.join(out_dir, name + ".thumbnail.webp"), Q=80, effort=2, strip=True)
    return time.perf_counter() - start


if __name__ == "__main__":
    run(convert_one)

#!/usr/bin/env bash
# Samples/png/ (issue 29, the PNG class): photo-like PNGs with an alpha channel, made with
# libvips' pngsave (libpng) from Tests/SampleMaker/scene.py's scene. Committed; this script
# documents how they were made and is not run by the build. Needs: libvips-tools python3-numpy.
#   sticker.png        400×300 RGBA: the scene inside a soft-edged disc, transparent around it
#                      (real transparency: the PNG fallback rendition)
#   opaque-alpha.png   400×300 RGBA whose alpha is 255 everywhere (the alpha carries nothing)
#   grey-sticker.png   400×300 grey + alpha: the sticker in grey
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples}/png
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
python3 "$here/scene.py" "$work/scene.ppm" 400 300 3
# Alpha: 255 inside a disc of radius 120 around the centre, falling to 0 over 16 px (a PGM).
python3 - "$work/alpha.pgm" <<'PY'
import sys
import numpy as np
y, x = np.mgrid[0:300, 0:400].astype(np.float64)
alpha = np.clip((120 - np.hypot(x - 200, y - 150)) * 16, 0, 255).astype(np.uint8)
with open(sys.argv[1], "wb") as f:
    f.write(b"P5\n400 300\n255\n" + alpha.tobytes())
PY
vips bandjoin "$work/scene.ppm $work/alpha.pgm" "$work/sticker.v"
vips pngsave "$work/sticker.v" "$out/sticker.png"
vips bandjoin_const "$work/scene.ppm" "$work/opaque.v" 255
vips pngsave "$work/opaque.v" "$out/opaque-alpha.png"
vips colourspace "$work/scene.ppm" "$work/grey.v" b-w
vips bandjoin "$work/grey.v $work/alpha.pgm" "$work/grey-sticker.v"
vips pngsave "$work/grey-sticker.v" "$out/grey-sticker.png"

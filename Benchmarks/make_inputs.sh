#!/usr/bin/env bash
# Makes the benchmark inputs deterministically (no downloads): photo-like scenes from
# Tests/SampleMaker/scene.py, encoded by libjpeg-turbo and x265 (libheif) through the vips
# CLI, some tagged with EXIF orientation 6 and a Display P3 profile like phone photos.
# Usage: make_inputs.sh DIR   (skips the work when DIR already holds the full set)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
python=${PYTHON:-python3}
mkdir -p "$dir"
[ -f "$dir/.complete" ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

scene() { # WIDTH HEIGHT SEED OUT
  "$python" "$here/../Tests/SampleMaker/scene.py" "$4" "$1" "$2" "$3"
}
for i in 1 2 3 4 5 6 7 8; do
  scene 4032 3024 "$i" "$work/s.ppm"
  if [ $((i % 2)) = 0 ]; then
    vips rot "$work/s.ppm" "$work/r.v" d270
    vips icc_transform "$work/r.v" "$work/p.v" p3 --input-profile srgb
    vips jpegsave "$work/p.v" "$dir/camera12mp-$i.jpg" --Q 92 --profile p3
    exiftool -q -overwrite_original -Orientation#=6 "$dir/camera12mp-$i.jpg" 2>/dev/null || true
  else
    vips jpegsave "$work/s.ppm" "$dir/camera12mp-$i.jpg" --Q 92
  fi
done
for i in 1 2; do
  scene 8064 6048 "$((20 + i))" "$work/s.ppm"
  vips jpegsave "$work/s.ppm" "$dir/camera48mp-$i.jpg" --Q 90
done
for i in 1 2 3 4 5 6; do
  scene 4032 3024 "$((30 + i))" "$work/s.ppm"
  vips heifsave "$work/s.ppm" "$dir/phone12mp-$i.heic" --Q 50 --compression hevc
done
touch "$dir/.complete"

#!/usr/bin/env bash
# Real HEIC/HEIF photos for the benchmark's heic class (make bench-deps; issue 29), fetched,
# never committed: pillow-heif's PyPI sdist (version pinned below) ships camera and phone files
# among its test images — iPhone 12 MP (arrow, pug), an Apple spatial photo, Sony α7S III and
# α7 IV 10-bit 4:2:2 .HIF (cat, guitar_cw90), Samsung 200 MP and auxiliary-image files, Xiaomi,
# and Nokia's conformance photos (alpha, burst, stereo). They are copied to DEST (default
# .build/bench/heic-photos) under the sdist's names; real_photos.sh adds them to its heic class,
# beside the corpus's HEICs. pip (the benchmark venv's, made here when missing, as
# real_photos.sh makes it) downloads the sdist; nothing is built. About 17 MB, once.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=$(pwd)/.build/bench
dest=${1:-$bench/heic-photos}
version=1.8.1
# The sdist's photos (its synthetic 16–128 px test patterns, corrupted and truncated files
# are left out).
photos="heif_other/arrow.heic heif_other/pug.heic heif_other/spatial_photo.heic heif_other/cat.hif
heif_other/empty_icc.heic heif_other/invalid_id.heic heif_other/nokia/alpha.heic
heif_other/nokia/bird_burst.heic heif_other/nokia/stereo_1200x800.heic heif_special/200MP.heic
heif_special/aux_YCbCr.heic heif_special/guitar_cw90.hif heif_special/xiaomi.heic"
[ -f "$dest/.pillow-heif-$version" ] && exit 0
mkdir -p "$bench"
if [ ! -x "$bench/venv/bin/python" ]; then
  python3 -m venv "$bench/venv"
  "$bench/venv/bin/pip" install -q --disable-pip-version-check pillow pillow-heif numpy
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bench/venv/bin/pip" download -q --disable-pip-version-check --no-deps --no-binary :all: \
  "pillow-heif==$version" -d "$work"
tar -xzf "$work/pillow_heif-$version.tar.gz" -C "$work"
rm -rf "$dest"; mkdir -p "$dest"
for p in $photos; do
  cp "$work/pillow_heif-$version/tests/images/$p" "$dest/$(basename "$(dirname "$p")")-$(basename "$p")"
done
touch "$dest/.pillow-heif-$version"
echo "fetch_heic_photos: $(ls "$dest" | wc -l) photos from pillow-heif $version's sdist in $dest"

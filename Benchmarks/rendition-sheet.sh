#!/usr/bin/env bash
# The README's picture of renditions: the thumbnails `make run` made in OUT (default out/) of a
# few samples — photos in every orientation and colour space, a grid HEIC, a JPEG XL,
# a Live Photo, video posters (HDR, DV), audio cover art, icons, a GIF — joined by the vips
# command-line tool (libvips-tools, `make bench-deps`) into PNG (default docs/renditions.png).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out}
sheet=${2:-docs/renditions.png}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
i=0
for source in photo.heic orientation-6-gps-p3.jpg cmyk.jpg heif/grid-3x2.heic \
              formats/scene.jxl live/IMG_0001.JPG video-hdr-hlg.mov video-dv.dv audio-cover.aiff \
              icon.svg alpha-disc.png scene.gif; do
  i=$((i + 1)); tile=$work/$(printf %02d $i).png
  vipsthumbnail "$out/$source.thumbnail.webp" -s 200x200 -o "$tile"
  case $(vipsheader -f bands "$tile") in
    4) vips flatten "$tile" "$work/t.png" --background "255 255 255" && mv "$work/t.png" "$tile" ;;
    1|2) vips colourspace "$tile" "$work/t.png" srgb && mv "$work/t.png" "$tile" ;;
  esac
done
vips arrayjoin "$(ls "$work"/[0-9]*.png | tr '\n' ' ')" "$work/sheet.png" --across 6 --shim 12 \
  --halign centre --valign centre --background "255 255 255"
vips copy "$work/sheet.png" "$sheet[compression=9,palette,Q=90]"
echo "rendition sheet: $sheet"

#!/usr/bin/env bash
# Re-creates the files in Samples/ with real encoders (libjpeg, libpng, libwebp, x265 via
# libheif, librsvg/cairo) driven by the vips, exiftool and rsvg-convert command-line tools.
# The samples are committed; this script documents how they were made and is not run by
# the build. Needs: libvips-tools libimage-exiftool-perl librsvg2-bin python3-numpy
# libopenjp2-tools netpbm.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# A photo-like 600×400 scene (smooth gradients plus sensor-like noise) with coloured
# 60×60 corner markers: red top-left, blue top-right, green bottom-left, white bottom-right.
python3 "$here/scene.py" "$work/scene.ppm" 600 400

# 1. JPEG stored sideways with EXIF orientation 6, a Display P3 profile and GPS.
#    Orientation 6 means "rotate 90° clockwise to display", so the stored pixels are the
#    scene turned 90° anticlockwise.
vips rot "$work/scene.ppm" "$work/stored.v" d270
vips icc_transform "$work/stored.v" "$work/p3.v" p3 --input-profile srgb --intent relative
vips jpegsave "$work/p3.v" "$out/orientation-6-gps-p3.jpg" --Q 90 --profile p3
exiftool -q -overwrite_original -Orientation#=6 \
  -GPSLatitude=48.8584 -GPSLatitudeRef=N -GPSLongitude=2.2945 -GPSLongitudeRef=E \
  -GPSDateStamp=2023:06:01 -GPSTimeStamp=12:03:22 \
  -DateTimeOriginal="2023:06:01 14:03:22" -Make=JournalMedia -Model=SampleMaker \
  "$out/orientation-6-gps-p3.jpg"

# 1b. JPEG stored sideways (orientation 8) tagged with libvips' own sRGB profile, as cameras
#     tag theirs: the decode must see the profile is sRGB and leave the colours alone.
vips rot "$work/scene.ppm" "$work/stored8.v" d90
vips jpegsave "$work/stored8.v" "$out/orientation-8-srgb.jpg" --Q 85 --profile srgb
exiftool -q -overwrite_original -Orientation#=8 "$out/orientation-8-srgb.jpg"

# 2. CMYK JPEG (converted with the default CMYK profile, which is embedded).
vips icc_transform "$work/scene.ppm" "$work/cmyk.v" cmyk --input-profile srgb
vips jpegsave "$work/cmyk.v" "$out/cmyk.jpg" --Q 90

# 3. HEIC (x265 through libheif) at 8 bits.
vips heifsave "$work/scene.ppm" "$out/photo.heic" --Q 60 --compression hevc

# 3b. A phone-like HEIC: Display P3 pixels and profile, stored turned 90° clockwise with an
#     `irot` property (added by heif_irot.py) saying "rotate 90° anticlockwise to display".
vips icc_transform "$work/scene.ppm" "$work/p3-scene.v" p3 --input-profile srgb --intent relative
vips rot "$work/p3-scene.v" "$work/p3-stored.v" d90
vips heifsave "$work/p3-stored.v" "$work/p3-stored.heic" --Q 60 --compression hevc
python3 "$here/heif_irot.py" "$work/p3-stored.heic" "$out/photo-p3-rotated.heic" 1

# 4. 16-bit PNG with an Adobe RGB (1998) profile.
vips icc_transform "$work/scene.ppm" "$work/a98.v" /usr/share/color/icc/ghostscript/a98.icc --input-profile srgb --depth 16
vips pngsave "$work/a98.v" "$out/adobe-rgb-16bit.png" --bitdepth 16 \
  --profile /usr/share/color/icc/ghostscript/a98.icc

# 5. PNG with real transparency (a disc on a transparent ground), and an opaque-alpha PNG.
python3 "$here/disc.py" "$work/disc.pam" 300
vips copy "$work/disc.pam" "$out/alpha-disc.png"
# 5a. Opaque white beside transparent black (128×64): a resize that does not premultiply alpha
#     darkens the white half's edge.
vips black "$work/half.v" 64 64 --bands 4
vips linear "$work/half.v" "$work/white.v" "1 1 1 1" "255 255 255 255" --uchar
vips cast "$work/half.v" "$work/clear.v" uchar
vips join "$work/white.v" "$work/clear.v" "$out/alpha-edge.png" horizontal

# 6. An SVG icon, and the same drawing as a one-page PDF (cairo through rsvg-convert).
cp "$here/icon.svg" "$out/icon.svg"
rsvg-convert -f pdf -o "$out/icon.pdf" "$here/icon.svg"

# 7. WebP and GIF of the scene (first frame only is used).
vips webpsave "$work/scene.ppm" "$out/scene.webp" --Q 75
vips gifsave "$work/scene.ppm" "$out/scene.gif"

# 8. Bad input: a JPEG cut to half its length, an empty file, a text file named .jpg.
vips jpegsave "$work/scene.ppm" "$work/whole.jpg" --Q 85
head -c $(( $(stat -c %s "$work/whole.jpg") / 2 )) "$work/whole.jpg" > "$out/truncated.jpg"
printf 'This is a shopping list, not a photo.\nmilk\neggs\n' > "$out/not-an-image.jpg"
: > "$out/empty.png"

# 9. Issue 17's still formats (Samples/formats/).
#    a. A JPEG with restart markers every MCU (libjpeg through vips), its sixth marker (RST5)
#       patched into RST1: libjpeg warns "found marker 0xd1 instead of RST5" and decodes on.
#    b. JPEG XL (libjxl through vips jxlsave), BMP (ffmpeg's bmp encoder) and a 48×48 ICO
#       holding a 32-bit BGRA bitmap of the transparent disc (ffmpeg's ico muxer).
#    c. A DNG and a CR2 around real JPEG previews (raw_preview.py builds the TIFF
#       structures; ExifTool reads them as DNG and CR2 with PreviewImage and ThumbnailImage).
mkdir -p "$out/formats"
python3 "$here/scene.py" "$work/small.ppm" 96 64
vips jpegsave "$work/small.ppm" "$work/restart.jpg" --Q 80 --restart-interval 1
python3 - "$work/restart.jpg" "$out/formats/restart-marker-damaged.jpg" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
scan = data.find(b"\xff\xda")
markers = [i for i in range(scan, len(data) - 1) if data[i] == 0xFF and 0xD0 <= data[i + 1] <= 0xD7]
data[markers[5] + 1] = 0xD1
open(sys.argv[2], "wb").write(data)
PY
python3 "$here/scene.py" "$work/s240.ppm" 240 160
vips jxlsave "$work/s240.ppm" "$out/formats/scene.jxl" --Q 75
ffmpeg -loglevel error -y -i "$work/s240.ppm" -vf scale=120:80 "$out/formats/scene.bmp"
python3 "$here/disc.py" "$work/disc48.pam" 48
ffmpeg -loglevel error -y -i "$work/disc48.pam" -c:v bmp -pix_fmt bgra "$out/formats/icon.ico"
python3 "$here/scene.py" "$work/s360.ppm" 360 240
vips jpegsave "$work/s360.ppm" "$work/preview.jpg" --Q 70 --strip
vips thumbnail "$work/s360.ppm" "$work/thumb.v" 120
vips jpegsave "$work/thumb.v" "$work/thumb.jpg" --Q 70 --strip
python3 "$here/raw_preview.py" dng "$out/formats/raw-preview.dng" "$work/preview.jpg" "$work/thumb.jpg" 6
python3 "$here/raw_preview.py" cr2 "$out/formats/raw-preview.cr2" "$work/preview.jpg" "$work/thumb.jpg" 8
# An ORF whose only preview is inside its Olympus MakerNote (ExifTool: ORF, PreviewImage).
python3 "$here/raw_preview.py" orf "$out/formats/raw-preview.orf" "$work/preview.jpg" "$work/thumb.jpg" 6
#    d. JPEG 2000 (OpenJPEG through vips jp2ksave), a binary PPM (the scene, 96×64), and the
#       linear-light picture of linear_light.py as PFM, OpenEXR (half floats) and Radiance
#       HDR (the EXR ×100, as a capture in absolute units, through vips radsave).
vips jp2ksave "$work/s240.ppm" "$out/formats/scene.jp2" --Q 40
#    A grey JPEG 2000 whose only component is subsampled 2×2 against its reference grid
#    (valid; libvips 8.14 decodes it wrongly, so it is refused): OpenJPEG's own encoder
#    (libopenjp2-tools), from the 96×64 scene in grey.
vips colourspace "$work/small.ppm" "$work/small-grey.v" b-w
vips copy "$work/small-grey.v" "$work/small-grey.pgm"
opj_compress -i "$work/small-grey.pgm" -o "$out/limits/grey-subsampled.jp2" -s 2,2 -r 20
cp "$work/small.ppm" "$out/formats/scene.ppm"
#    FITS (8-bit RGB planes, the bottom row first as the standard says): the same 96×64 scene
#    through Netpbm's own encoder (package netpbm).
pnmtofits "$work/small.ppm" > "$out/formats/scene.fits"
python3 "$here/linear_light.py" pfm "$out/formats/linear.pfm"
python3 "$here/linear_light.py" exr "$out/formats/linear.exr"
python3 "$here/linear_light.py" exr "$work/bright.exr" 100
vips radsave "$work/bright.exr" "$out/formats/absolute.hdr"
ls -l "$out" "$out/formats"

# 10. JPEGs that fit the fallback's box (Samples/jpeg-reuse/): one that can be its own
#     fallback (libjpeg Q80 4:2:0 with libvips' sRGB profile; ExifTool adds EXIF with GPS, a
#     capture date, XMP and a comment; bytes appended after EOI stand for an MPF/motion trailer)
#     and one at Q95 4:4:4, which must be encoded again.
mkdir -p "$out/jpeg-reuse"
python3 "$here/scene.py" "$work/s480.ppm" 480 360
vips jpegsave "$work/s480.ppm" "$out/jpeg-reuse/in-box-gps.jpg" --Q 80 --profile srgb
exiftool -q -overwrite_original -GPSLatitude=48.8584 -GPSLatitudeRef=N -GPSLongitude=2.2945 -GPSLongitudeRef=E \
  -DateTimeOriginal="2025:06:14 18:32:05" -OffsetTimeOriginal=+02:00 -Make=TestCam -Comment="private note" \
  -XMP-dc:Title="holiday" "$out/jpeg-reuse/in-box-gps.jpg"
printf 'TRAILER-AFTER-EOI-0123456789' >> "$out/jpeg-reuse/in-box-gps.jpg"
vips jpegsave "$work/s480.ppm" "$out/jpeg-reuse/in-box-q95.jpg" --Q 95 --subsample-mode off

# 11. A small CMYK JPEG (120×80, under DirectProfileTransform.maxPixels) without a profile:
#     decoded through libvips' CMYK profile (not embedded: it is ~960 kB; cmyk.jpg carries it).
python3 "$here/scene.py" "$work/s120.ppm" 120 80
vips icc_transform "$work/s120.ppm" "$work/cmyk120.v" cmyk --input-profile srgb
vips jpegsave "$work/cmyk120.v" "$out/icc/cmyk-small-untagged.jpg" --Q 90 --strip

# 12. A PNG whose IHDR chunk fails its CRC (issue 27): libpng refuses it, and libvips 8.14
#     says why only in a warning ("IHDR: CRC error"), which the asset's error then carries.
python3 "$here/scene.py" "$work/s48.ppm" 48 32
vips pngsave "$work/s48.ppm" "$work/s48.png" --strip
python3 - "$work/s48.png" "$out/formats/ihdr-crc-damaged.png" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
assert data[12:16] == b"IHDR"
data[29:33] = bytes(b ^ 0xFF for b in data[29:33])  # the CRC after IHDR's 13 bytes of data
open(sys.argv[2], "wb").write(data)
PY

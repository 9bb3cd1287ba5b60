#!/usr/bin/env bash
# Re-creates Samples/dates/: small real files (libjpeg via vips, x265 via libheif, libpng,
# x264 via ffmpeg) whose capture-date metadata was written by exiftool and ffmpeg's mov
# muxer, plus a few deliberately damaged ones. The samples are committed; this script
# documents how they were made and is not run by the build.
# Needs: libvips-tools libimage-exiftool-perl ffmpeg python3-numpy.
# Check any of them with: exiftool -G1 -a -n -time:all -gps:all FILE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples/dates}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
rm -f "$out"/*

python3 "$here/scene.py" "$work/scene.ppm" 120 80
jpeg() { vips jpegsave "$work/scene.ppm" "$1" --Q 70 --strip; }
et() { exiftool -q -overwrite_original "$@"; }

# Local time, sub-seconds and zone: exact.
jpeg "$out/offset-subsec.jpg"
et -DateTimeOriginal="2023:06:01 14:03:22" -SubSecTimeOriginal=12 -OffsetTimeOriginal=+02:00 \
   -CreateDate="2023:06:01 14:03:22" -ModifyDate="2023:06:02 09:00:00" "$out/offset-subsec.jpg"

# Local time only: localOnly, no offset invented.
jpeg "$out/local-only.jpg"
et -DateTimeOriginal="2022:12:24 18:30:05" "$out/local-only.jpg"

# Local time plus GPS date and time (UTC), across midnight: offset inferred as -05:00
# (local 20:30:00 vs GPS 01:29:41 the next day is -4:59:41, rounded to 15 minutes).
jpeg "$out/gps-time.jpg"
et -DateTimeOriginal="2023:01:01 20:30:00" -GPSDateStamp=2023:01:02 -GPSTimeStamp=01:29:41 \
   -GPSLatitude=40.7 -GPSLatitudeRef=N -GPSLongitude=74.0 -GPSLongitudeRef=W "$out/gps-time.jpg"

# GPS time 15 hours away from the local time: beyond ±14 h, no offset inferred.
jpeg "$out/gps-absurd.jpg"
et -DateTimeOriginal="2023:01:01 20:30:00" -GPSDateStamp=2023:01:01 -GPSTimeStamp=05:30:00 "$out/gps-absurd.jpg"

# A zeroed DateTimeOriginal: the next source (DateTimeDigitized with its own zone) wins.
jpeg "$out/zero-date.jpg"
et -DateTimeOriginal#="0000:00:00 00:00:00" -CreateDate="2021:03:14 15:09:26" -SubSecTimeDigitized=5 \
   -OffsetTimeDigitized=-07:00 "$out/zero-date.jpg"

# Only XMP (exif:DateTimeOriginal with a zone): the EXIF block has no date.
jpeg "$out/xmp-only.jpg"
et -XMP-exif:DateTimeOriginal="2020:02:29 23:59:58.250+05:30" "$out/xmp-only.jpg"

# Only a ModifyDate (DateTime) in IFD0: low confidence, localOnly.
jpeg "$out/modify-only.jpg"
et -ModifyDate="2019:07:04 10:11:12" "$out/modify-only.jpg"

# A date in the future (year 2999): rejected; the XMP CreateDate is used instead.
jpeg "$out/future-date.jpg"
et -DateTimeOriginal="2999:01:01 00:00:00" -XMP-xmp:CreateDate="2018:05:06 07:08:09" "$out/future-date.jpg"

# DateTimeOriginal stored with the wrong type (LONG instead of ASCII, pointing past the
# block): ignored, DateTimeDigitized is used. exiftool writes the tag; python retypes it.
jpeg "$out/wrong-type.jpg"
et -DateTimeOriginal="2017:08:09 10:11:12" -CreateDate="2017:08:09 10:11:13" "$out/wrong-type.jpg"
python3 - "$out/wrong-type.jpg" <<'EOF'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
i = b.find(b'\x90\x03\x00\x02')          # tag 0x9003, type ASCII, big-endian
assert i > 0
b[i + 2:i + 4] = b'\x00\x04'            # type LONG; count 20 now means 80 bytes
b[i + 8:i + 12] = b'\x7f\xff\xff\x00'   # and the offset points far past the block
open(p, 'wb').write(b)
EOF

# A garbled EXIF block (IFD0 offset past the end) next to a good XMP packet.
jpeg "$out/garbled-exif.jpg"
et -DateTimeOriginal="2016:01:02 03:04:05" -XMP-photoshop:DateCreated="2016:01:02 03:04:05-03:00" "$out/garbled-exif.jpg"
python3 - "$out/garbled-exif.jpg" <<'EOF'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
i = b.find(b'Exif\x00\x00MM\x00\x2a')
assert i > 0
b[i + 10:i + 14] = b'\xff\xff\xff\xf0'  # IFD0 offset far past the block
open(p, 'wb').write(b)
EOF

# PNG with a tEXt "Creation Time" in RFC 1123 form (as many PNG writers put it).
vips pngsave "$work/scene.ppm" "$work/ct.png" --strip
python3 - "$work/ct.png" "$out/creation-time.png" <<'EOF'
import struct, sys, zlib
src, dst = sys.argv[1], sys.argv[2]
b = open(src, 'rb').read()
body = b'Creation Time\x00Sat, 10 Aug 2024 16:45:30 +0100'
chunk = struct.pack('>I', len(body)) + b'tEXt' + body + struct.pack('>I', zlib.crc32(b'tEXt' + body))
ihdr_end = 8 + 8 + 13 + 4
open(dst, 'wb').write(b[:ihdr_end] + chunk + b[ihdr_end:])
EOF

# PNG with an eXIf chunk (exiftool writes EXIF into PNG as eXIf).
vips pngsave "$work/scene.ppm" "$out/exif.png" --strip
et -DateTimeOriginal="2024:03:10 02:30:00" -OffsetTimeOriginal=-08:00 "$out/exif.png"

# HEIC (x265 through libheif) with EXIF dates.
vips heifsave "$work/scene.ppm" "$out/dated.heic" --Q 50 --compression hevc --strip
et -DateTimeOriginal="2023:07:12 12:17:10" -SubSecTimeOriginal=983 -OffsetTimeOriginal=+01:00 "$out/dated.heic"

# WebP with an EXIF chunk.
# (libvips 8.14 writes an EXIF chunk even when stripping, so libwebp is driven by ffmpeg here.)
ffmpeg -v error -y -i "$work/scene.ppm" -c:v libwebp -quality 60 "$out/dated.webp"
et -DateTimeOriginal="2022:02:22 22:22:22" "$out/dated.webp"

# MOV with Apple's creationdate key (local + zone) and a later mvhd creation_time.
ffmpeg -v error -y -f lavfi -i testsrc2=s=96x64:d=0.5:r=10 -c:v libx264 -pix_fmt yuv420p \
  -movflags use_metadata_tags -metadata "com.apple.quicktime.creationdate=2023-06-01T14:03:22+0200" \
  -metadata creation_time=2023-06-01T12:03:30Z "$out/apple-creationdate.mov"
# MP4 with only the mvhd creation_time (UTC).
ffmpeg -v error -y -f lavfi -i testsrc2=s=96x64:d=0.5:r=10 -c:v libx264 -pix_fmt yuv420p \
  -metadata creation_time=2023-06-01T12:03:22Z "$out/creation-time-only.mp4"

# No metadata at all: the date is in the file name.
vips pngsave "$work/scene.ppm" "$out/PXL_20230101_120000123.png" --strip
vips pngsave "$work/scene.ppm" "$out/Screenshot 2023-01-01 at 12.00.00.png" --strip
jpeg "$out/IMG-20230101-WA0001.jpg"
ffmpeg -v error -y -f lavfi -i testsrc2=s=96x64:d=0.5:r=10 -c:v libx264 -pix_fmt yuv420p \
  -fflags +bitexact -map_metadata -1 "$out/VID_20221231_235959.mp4"

ls -l "$out"

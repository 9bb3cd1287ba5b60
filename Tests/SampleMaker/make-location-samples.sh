#!/usr/bin/env bash
# Re-creates Samples/location/: where and with what a photo or movie was made.
#  - Two real phone photos with GPS, copied unchanged from the development corpus
#    (../shared/corpus): pixel6-ultrahdr.jpg is Pillow's Tests/images/ultrahdr.jpg (Google
#    Pixel 6; MIT-CMU licence, Pillow authors); iphone-se-live.heic is photokit's
#    tests/assets/test_live.HEIC (iPhone SE 2nd gen; CC BY 4.0, (c) Rhet Turnbull).
#  - Small libjpeg stills (vips) and a QuickTime movie (ffmpeg) whose GPS and camera tags
#    were written by exiftool, including the edge values the sanity rules refuse.
# The samples are committed; this script documents how they were made and is not run by
# the build. Needs: libvips-tools libimage-exiftool-perl ffmpeg python3.
# Check any of them with: exiftool -G1 -a -n -gps:all -make -model -keys:all FILE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples/location}
corpus=${CORPUS:-$here/../../../shared/corpus}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
rm -rf "${out:?}"/*

cp "$corpus/pypi+pillow-13.0.0/Tests/images/ultrahdr.jpg" "$out/pixel6-ultrahdr.jpg"
cp "$corpus/RhetTbull+photokit/tests/assets/test_live.HEIC" "$out/iphone-se-live.heic"
chmod 644 "$out"/*

python3 "$here/scene.py" "$work/scene.ppm" 120 80
jpeg() { vips jpegsave "$work/scene.ppm" "$1" --Q 70 --strip; }
et() { exiftool -q -overwrite_original "$@"; }

# Everything: Zurich, 408 m, 4.7 m accuracy, facing 123.5°, 36 km/h; an iPhone's camera tags.
jpeg "$out/full.jpg"
et -GPSLatitude=47.3769 -GPSLatitudeRef=N -GPSLongitude=8.5417 -GPSLongitudeRef=E \
   -GPSAltitude=408 -GPSAltitudeRef=0 -GPSHPositioningError=4.7 -GPSImgDirection=123.5 \
   -GPSImgDirectionRef#=T -GPSSpeed=36 -GPSSpeedRef#=K -Make="Apple" -Model="iPhone 15 Pro" \
   -LensModel="iPhone 15 Pro back triple camera 6.765mm f/1.78" -Software=17.5 \
   -FocalLength=6.765 -FocalLengthIn35mmFormat=24 -FNumber=1.78 -ExposureTime=0.001 -ISO=64 "$out/full.jpg"

# South and west, below sea level (GPSAltitudeRef 1), speed in knots; padded make/model.
jpeg "$out/south-west-below.jpg"
et -GPSLatitude=34.6037 -GPSLatitudeRef=S -GPSLongitude=58.3816 -GPSLongitudeRef=W \
   -GPSAltitude=12.5 -GPSAltitudeRef#=1 -GPSSpeed=10 -GPSSpeedRef#=N \
   -Make="  Canon  " -Model="Canon EOS 5D  " "$out/south-west-below.jpg"

# 0/0: what receivers write without a fix.
jpeg "$out/zero-fix.jpg"
et -GPSLatitude=0 -GPSLatitudeRef=N -GPSLongitude=0 -GPSLongitudeRef=E "$out/zero-fix.jpg"

# GPSStatus V (measurement void) with a plausible position.
jpeg "$out/status-void.jpg"
et -GPSStatus#=V -GPSLatitude=51.5 -GPSLatitudeRef=N -GPSLongitude=0.12 -GPSLongitudeRef=W "$out/status-void.jpg"

# No hemisphere references.
jpeg "$out/no-ref.jpg"
et -GPSLatitude=51.5 -GPSLongitude=0.12 "$out/no-ref.jpg"

# Latitude 95° (degrees written as 95/1): out of range.
jpeg "$out/out-of-range.jpg"
et -GPSLatitude=95 -GPSLatitudeRef=N -GPSLongitude=8 -GPSLongitudeRef=E "$out/out-of-range.jpg"

# A zero denominator in GPSLatitude's minutes (patched in the bytes: 12/1 37/1 0/1 → 37/0).
jpeg "$out/zero-denominator.jpg"
et -GPSLatitude=12.616666666666667 -GPSLatitudeRef=N -GPSLongitude=8 -GPSLongitudeRef=E "$out/zero-denominator.jpg"
python3 - "$out/zero-denominator.jpg" <<'PY'
import sys
path = sys.argv[1]
data = bytearray(open(path, 'rb').read())
for order in ('>', '<'):
    import struct
    needle = struct.pack(order + 'IIIIII', 12, 1, 37, 1, 0, 1)
    at = data.find(needle)
    if at >= 0:
        data[at + 12:at + 16] = struct.pack(order + 'I', 0)
        open(path, 'wb').write(data)
        break
else:
    sys.exit('GPSLatitude rationals not found')
PY

# XMP only (exif:GPSLatitude as DDD,MM.mmk), no EXIF GPS.
jpeg "$out/xmp-only.jpg"
et -XMP-exif:GPSLatitude="48.8584 N" -XMP-exif:GPSLongitude="2.2945 E" -XMP-exif:GPSAltitude=35 "$out/xmp-only.jpg"

# A QuickTime movie with Apple's location keys and camera keys (the ISO 6709 key and its
# horizontal accuracy), and an MP4 with ©xyz only (as Android phones write it).
ffmpeg -v error -f lavfi -i testsrc=size=64x48:rate=10 -t 0.5 -c:v libx264 -pix_fmt yuv420p \
  -movflags use_metadata_tags -metadata "com.apple.quicktime.location.ISO6709=+35.6586+139.7454+040.000/" \
  -metadata "com.apple.quicktime.location.accuracy.horizontal=14.5" \
  -metadata "com.apple.quicktime.make=Apple" -metadata "com.apple.quicktime.model=iPhone 15 Pro" \
  -metadata "com.apple.quicktime.software=17.5" -y "$out/apple-keys.mov"
# (ffmpeg's mp4 muxer writes `location` as 3GPP `loci`, so exiftool writes the ©xyz.)
ffmpeg -v error -f lavfi -i testsrc=size=64x48:rate=10 -t 0.5 -c:v libx264 -pix_fmt yuv420p \
  -y "$out/android-xyz.mp4"
et -UserData:GPSCoordinates="-33.8568, 151.2153" "$out/android-xyz.mp4"
# A movie whose ©xyz does not parse (the mov muxer writes `location` as ©xyz, unchecked).
ffmpeg -v error -f lavfi -i testsrc=size=64x48:rate=10 -t 0.5 -c:v libx264 -pix_fmt yuv420p \
  -metadata "location=somewhere nice" -f mov -y "$out/bad-iso6709.mov"

# A Live Photo whose still has no GPS and whose movie has: the entry takes the movie's.
mkdir -p "$out/live"
cp "$here/../../Samples/live/IMG_0001.JPG" "$out/live/"
ffmpeg -v error -i "$here/../../Samples/live/IMG_0001.MOV" -c copy -map 0 -movflags use_metadata_tags \
  -metadata "com.apple.quicktime.location.ISO6709=+40.6892-074.0445+010.000/" -y "$out/live/IMG_0001.MOV"

# Local times without an offset, whose zone comes from the place (issue 30): the Pixel 6
# photo with its OffsetTime* and GPS time removed (the phone wrote +08:00: Asia/Shanghai),
# and small stills at the iPhone SE photo's position (the phone wrote +01:00 in July:
# Europe/London) on a summer and a winter day.
mkdir -p "$out/zone"
cp "$out/pixel6-ultrahdr.jpg" "$out/zone/pixel6-no-offset.jpg"
et -OffsetTime= -OffsetTimeOriginal= -OffsetTimeDigitized= -GPSDateStamp= -GPSTimeStamp= "$out/zone/pixel6-no-offset.jpg"
for season in summer:2023:07:12 winter:2023:01:12; do
  jpeg "$out/zone/london-${season%%:*}.jpg"
  et -DateTimeOriginal="${season#*:} 12:17:10" -GPSLatitude=55.4562722222222 -GPSLatitudeRef=N \
     -GPSLongitude=2.64233611111111 -GPSLongitudeRef=W "$out/zone/london-${season%%:*}.jpg"
done

# Matroska: the two movies above remuxed by ffmpeg (-c copy), which keeps their tags upper-case
# (LOCATION from ©xyz; COM.APPLE.QUICKTIME.LOCATION.ISO6709 and the camera keys).
ffmpeg -v error -i "$out/android-xyz.mp4" -c copy -y "$out/matroska-location.mkv"
ffmpeg -v error -i "$out/apple-keys.mov" -c copy -y "$out/matroska-apple-keys.mkv"

# A still without GPS whose XMP sidecar (as Lightroom or darktable write one after geotagging)
# gives the position: Zurich; its local time then takes Europe/Zurich's offset.
mkdir -p "$out/sidecar"
jpeg "$out/sidecar/IMG_0005.JPG"
et -DateTimeOriginal="2024:06:10 18:45:00" "$out/sidecar/IMG_0005.JPG"
exiftool -q -XMP-exif:GPSLatitude="47.3769 N" -XMP-exif:GPSLongitude="8.5417 E" -o "$out/sidecar/IMG_0005.xmp"

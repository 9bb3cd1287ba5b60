#!/usr/bin/env bash
# Capture-date throughput (part of make bench): `journal-media inspect` at --jobs 1 and 2
# beside ExifTool in batch mode (one process for all files, the fastest way to run it),
# on the same deterministic folder of small camera-like JPEGs, in one run. Prints a table
# and the ratios; with OUTPUT=FILE also writes the table there (for RESULTS.md).
# Environment: RUNS (default 3) repetitions, best kept; DATE_FILES (default 3000) inputs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench=$root/.build/bench
runs=${RUNS:-3}
files=${DATE_FILES:-3000}
inputs=$bench/dates
bin=$(swift build -c release --show-bin-path)/journal-media

# Inputs: one 320×240 JPEG written by libjpeg (vips) with the EXIF a phone writes
# (DateTimeOriginal, sub-seconds, offset, GPS date/time, make/model) by exiftool, copied
# DATE_FILES times with a different date patched into each copy (same length, so the EXIF
# block stays valid). Remade when the count changes.
if [ "$(ls "$inputs" 2>/dev/null | wc -l)" != "$files" ]; then
  rm -rf "$inputs"; mkdir -p "$inputs"
  vips black "$bench/date-template.v" 320 240 --bands 3
  vips jpegsave "$bench/date-template.v" "$bench/date-template.jpg" --Q 80
  exiftool -q -overwrite_original -Make=Apple -Model="iPhone 13" -DateTimeOriginal="2023:06:01 14:03:22" \
    -CreateDate="2023:06:01 14:03:22" -ModifyDate="2023:06:01 14:03:22" -SubSecTimeOriginal=120 \
    -OffsetTimeOriginal=+02:00 -GPSDateStamp=2023:06:01 -GPSTimeStamp=12:03:22 \
    -GPSLatitude=48.85 -GPSLatitudeRef=N -GPSLongitude=2.29 -GPSLongitudeRef=E "$bench/date-template.jpg"
  python3 - "$bench/date-template.jpg" "$inputs" "$files" <<'EOF'
import sys
template, folder, count = open(sys.argv[1], 'rb').read(), sys.argv[2], int(sys.argv[3])
for i in range(count):
    day, minute = 1 + i % 28, i % 60
    stamp = b'2023:06:%02d 14:%02d:22' % (day, minute)
    open(f'{folder}/IMG_{i:05d}.JPG', 'wb').write(template.replace(b'2023:06:01 14:03:22', stamp))
EOF
fi
megabytes=$(du -sb "$inputs" | awk '{printf "%.1f", $1/1048576}')

source Benchmarks/measure.sh
measure_stdout="$bench/dates-stdout.txt"

read -r et etrss < <(measure exiftool -j -n -DateTimeOriginal -SubSecTimeOriginal -OffsetTimeOriginal -CreateDate \
  -ModifyDate -GPSDateStamp -GPSTimeStamp "$inputs")
read -r jm1 jm1rss < <(measure "$bin" inspect "$inputs" --jobs 1)
jm1lines=$(grep -c '"source":"exif.DateTimeOriginal","confidence":"exact"' "$bench/dates-stdout.txt" || true)
read -r jm2 jm2rss < <(measure "$bin" inspect "$inputs" --jobs 2)

row() { awk -v n="$files" -v s="$2" -v rss="$3" -v ref="$4" -v name="$1" \
  'BEGIN{printf "| %-40s | %7.2f | %9.0f | %9.0f | %6.1f× |\n", name, s, n/s, rss/1024, ref/s}'; }
table=$(
  echo "| capture dates, $files JPEGs ($megabytes MB) | seconds | files/s | peak RSS MiB | vs ExifTool |"
  echo "|---|---:|---:|---:|---:|"
  row "journal-media inspect --jobs 1" "$jm1" "$jm1rss" "$et"
  row "journal-media inspect --jobs 2" "$jm2" "$jm2rss" "$et"
  row "exiftool -j (one batch process)" "$et" "$etrss" "$et"
)
echo "$table"
echo "(journal-media read an exact EXIF date from $jm1lines of $files files; ExifTool is single-threaded, so the --jobs 1 row is the like-for-like ratio)"
if [ -n "${OUTPUT:-}" ]; then
  { echo "$table"; echo; echo "journal-media found an exact EXIF date in $jm1lines of $files files."; } > "$OUTPUT"
fi

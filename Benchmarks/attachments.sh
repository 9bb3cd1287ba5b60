#!/usr/bin/env bash
# Notification movie attachments (part of make bench): `journal-media convert` with only the
# `notification` spec (poster → 1024 px JPEG, plus the MP4 attachment: decode, scale to 720p,
# libx264 veryfast + AAC, in-process) beside the ffmpeg command line making the same MP4 from
# each clip (scale=1280:-2, libx264 veryfast at the same bitrate and VBV, AAC 64k), in one run.
# Inputs: the 6 SDR 1080p H.264 + AAC clips of posters.sh (8 s each; made here when missing).
# Prints a table and ratios; with OUTPUT=FILE also writes the table there.
# Environment: RUNS (default 3) repetitions, best kept.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench=$root/.build/bench
runs=${RUNS:-3}
inputs=$bench/attachment-videos
bin=$(swift build -c release --show-bin-path)/journal-media

if [ "$(ls "$inputs" 2>/dev/null | wc -l)" != 6 ]; then
  rm -rf "$inputs"; mkdir -p "$inputs"
  for i in 1 2 3 4 5 6; do
    ffmpeg -v error -y -f lavfi -i "testsrc2=s=1920x1080:r=30:d=8,hue=h=$((i * 50))" \
      -f lavfi -i "sine=f=$((300 + i * 40)):d=8" -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p \
      -c:a aac -b:a 96k "$inputs/sdr-$i.mp4"
  done
fi
clips=("$inputs"/*)
count=${#clips[@]}

source Benchmarks/measure.sh
measure_clean="$bench/attachment-out"
echo '{"renditions": [{"role": "notification", "format": "jpeg", "formatWhenTransparent": "png", "width": 1024}]}' \
  > "$bench/attachment-preset.json"
# journal-media's bitrate for 1280×720 at 30 fps: 0.1 bit per pixel per frame.
rate=$((1280 * 720 * 30 / 10))
cat > "$bench/ffmpeg-attachments.sh" <<EOF2
#!/usr/bin/env bash
set -e
out=\$1; shift
for f in "\$@"; do
  ffmpeg -nostdin -v error -y -i "\$f" -vf scale=1280:-2 -c:v libx264 -preset veryfast -profile:v high \
    -pix_fmt yuv420p -b:v $rate -maxrate $((rate * 3 / 2)) -bufsize $((rate * 2)) -c:a aac -b:a 64k -ac 1 \
    "\$out/\$(basename "\$f").mp4"
done
EOF2
chmod +x "$bench/ffmpeg-attachments.sh"

read -r jm1 jm1rss < <(measure "$bin" convert "${clips[@]}" --output "$bench/attachment-out" --preset "$bench/attachment-preset.json" --notification --jobs 1 --quiet --force)
read -r jm2 jm2rss < <(measure "$bin" convert "${clips[@]}" --output "$bench/attachment-out" --preset "$bench/attachment-preset.json" --notification --jobs 2 --quiet --force)
mp4bytes=$(cat "$bench"/attachment-out/*.mp4 | wc -c)
read -r ff ffrss < <(measure "$bench/ffmpeg-attachments.sh" "$bench/attachment-out" "${clips[@]}")
ffbytes=$(cat "$bench"/attachment-out/*.mp4 | wc -c)

row() { awk -v n="$count" -v s="$2" -v rss="$3" -v ref="$4" -v name="$1" -v b="$5" \
  'BEGIN{printf "| %-58s | %7.2f | %8.2f | %9.0f | %8.2f | %6.2f× |\n", name, s, n/s, rss/1024, b/1e6, ref/s}'; }
table=$(
  echo "| MP4 attachments, $count clips (1080p30 H.264 + AAC, 8 s) → 720p H.264 + AAC | seconds | clips/s | peak RSS MiB | MP4 MB | vs ffmpeg CLI |"
  echo "|---|---:|---:|---:|---:|---:|"
  row "journal-media convert --notification --jobs 1 (+ poster JPEG)" "$jm1" "$jm1rss" "$ff" "$mp4bytes"
  row "journal-media convert --notification --jobs 2" "$jm2" "$jm2rss" "$ff" "$mp4bytes"
  row "ffmpeg -vf scale=1280:-2 -c:v libx264 -preset veryfast (per clip)" "$ff" "$ffrss" "$ff" "$ffbytes"
)
echo "$table"
echo "(ffmpeg decodes and encodes with all cores; journal-media uses one libx264 thread per clip)"
if [ -n "${OUTPUT:-}" ]; then echo "$table" > "$OUTPUT"; fi

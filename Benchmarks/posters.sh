#!/usr/bin/env bash
# Video poster throughput (part of make bench): `journal-media convert` on a folder of clips
# (one poster frame per clip, then the default thumbnail + fallback renditions) beside the
# ffmpeg command line run once per clip (`ffmpeg -ss T -i F -frames:v 1 poster.jpg`, T the
# same min(10 % of duration, 5 s) journal-media seeks to) and ffmpegthumbnailer (-s 512),
# in one run. Prints a table and ratios; with OUTPUT=FILE also writes the table there.
# Environment: RUNS (default 3) repetitions, best kept.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench=$root/.build/bench
runs=${RUNS:-3}
inputs=$bench/videos
bin=$(swift build -c release --show-bin-path)/journal-media

# Inputs, made once with ffmpeg's encoders from its test sources (deterministic):
# 6 × 1080p H.264 8 s (phone-like SDR, AAC audio) and 3 × 1080p HEVC 10-bit HLG 6 s (iPhone-like HDR).
if [ "$(ls "$inputs" 2>/dev/null | wc -l)" != 9 ]; then
  rm -rf "$inputs"; mkdir -p "$inputs"
  for i in 1 2 3 4 5 6; do
    ffmpeg -v error -y -f lavfi -i "testsrc2=s=1920x1080:r=30:d=8,hue=h=$((i * 50))" \
      -f lavfi -i "sine=f=$((300 + i * 40)):d=8" -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p \
      -c:a aac -b:a 96k "$inputs/sdr-$i.mp4"
  done
  for i in 1 2 3; do
    ffmpeg -v error -y -f lavfi -i "testsrc2=s=1920x1080:r=30:d=6,hue=h=$((i * 90))" -c:v libx265 \
      -x265-params "log-level=error:keyint=60:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc" \
      -preset ultrafast -pix_fmt yuv420p10le -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc \
      -tag:v hvc1 "$inputs/hlg-$i.mov"
  done
fi
clips=("$inputs"/*)
count=${#clips[@]}

source Benchmarks/measure.sh
measure_clean="$bench/poster-out"

# The ffmpeg peer: one process per clip, seeking where journal-media does. The seek times
# are worked out with ffprobe beforehand, outside the timed run, so the peer is timed on
# ffmpeg alone.
for f in "${clips[@]}"; do
  d=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$f")
  awk -v d="$d" -v f="$f" 'BEGIN{t=d*0.1; if (t>5) t=5; if (d<1) t=0; printf "%.3f %s\n", t, f}'
done > "$bench/poster-times.txt"
cat > "$bench/ffmpeg-posters.sh" <<'EOF'
#!/usr/bin/env bash
set -e
out=$1; times=$2
while read -r t f; do
  ffmpeg -nostdin -v error -y -ss "$t" -i "$f" -frames:v 1 -q:v 3 "$out/$(basename "$f").jpg"
done < "$times"
EOF
chmod +x "$bench/ffmpeg-posters.sh"
cat > "$bench/thumbnailer-posters.sh" <<'EOF'
#!/usr/bin/env bash
set -e
out=$1; shift
for f in "$@"; do ffmpegthumbnailer -i "$f" -o "$out/$(basename "$f").jpg" -s 512 -q 8; done
EOF
chmod +x "$bench/thumbnailer-posters.sh"

read -r jm1 jm1rss < <(measure "$bin" convert "$inputs" --output "$bench/poster-out" --jobs 1 --quiet --force)
read -r jm2 jm2rss < <(measure "$bin" convert "$inputs" --output "$bench/poster-out" --jobs 2 --quiet --force)
read -r ff ffrss < <(measure "$bench/ffmpeg-posters.sh" "$bench/poster-out" "$bench/poster-times.txt")
tn=""
if command -v ffmpegthumbnailer >/dev/null; then
  read -r tn tnrss < <(measure "$bench/thumbnailer-posters.sh" "$bench/poster-out" "${clips[@]}")
fi

row() { awk -v n="$count" -v s="$2" -v rss="$3" -v ref="$4" -v name="$1" \
  'BEGIN{printf "| %-52s | %7.2f | %8.1f | %9.0f | %6.1f× |\n", name, s, n/s, rss/1024, ref/s}'; }
table=$(
  echo "| posters, $count clips (6 × 1080p H.264 8 s, 3 × 1080p HEVC 10-bit HLG 6 s) | seconds | clips/s | peak RSS MiB | vs ffmpeg CLI |"
  echo "|---|---:|---:|---:|---:|"
  row "journal-media convert --jobs 1 (poster + 2 renditions)" "$jm1" "$jm1rss" "$ff"
  row "journal-media convert --jobs 2" "$jm2" "$jm2rss" "$ff"
  row "ffmpeg -ss T -i F -frames:v 1 (one process per clip)" "$ff" "$ffrss" "$ff"
  if [ -n "$tn" ]; then row "ffmpegthumbnailer -s 512 (one process per clip)" "$tn" "$tnrss" "$ff"; fi
)
echo "$table"
echo "(ffmpeg and ffmpegthumbnailer decode with all cores; journal-media --jobs 1 uses one thread per clip)"
if [ -n "${OUTPUT:-}" ]; then echo "$table" > "$OUTPUT"; fi

#!/usr/bin/env bash
# make bench: throughput of `journal-media convert` (default renditions) at --jobs 1 and 2
# beside Pillow (draft-mode thumbnailer, 2 processes), on the same deterministic inputs,
# in one run; then colour analysis cost (color-bench) and capture-date reading beside
# ExifTool (Benchmarks/dates.sh) and video posters beside the ffmpeg CLI and
# ffmpegthumbnailer (Benchmarks/posters.sh). Prints a table; with WRITE_RESULTS=1 also writes Benchmarks/RESULTS.md.
# Environment: RUNS (default 3) repetitions, best kept per tool.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench=$root/.build/bench
runs=${RUNS:-3}
mkdir -p "$bench"

# Peer environment: Pillow and pillow-heif from PyPI, numpy to draw the inputs.
if [ ! -x "$bench/venv/bin/python" ]; then
  python3 -m venv "$bench/venv"
  "$bench/venv/bin/pip" install -q --disable-pip-version-check pillow pillow-heif numpy
fi
PY=$bench/venv/bin/python
PYTHON=$PY Benchmarks/make_inputs.sh "$bench/inputs"
swift build -c release --product color-bench >/dev/null
bin=$(swift build -c release --show-bin-path)/journal-media
colorbench=$(swift build -c release --show-bin-path)/color-bench
inputs=("$bench"/inputs/*)
count=${#inputs[@]}
megabytes=$(du -cb "${inputs[@]}" | tail -1 | awk '{printf "%.1f", $1/1048576}')

source Benchmarks/measure.sh
measure_clean="$bench/out"

echo "inputs: $count files, $megabytes MB ($(ls "$bench/inputs" | sed 's/-[0-9]*\..*//' | sort | uniq -c | awk '{printf "%s×%s ", $1, $2}'))"
echo "machine: $(nproc) cores; best of $runs runs per tool"
read -r jm1 jm1rss < <(measure "$bin" convert "$bench/inputs" --output "$bench/out" --jobs 1 --quiet --force)
read -r jm2 jm2rss < <(measure "$bin" convert "$bench/inputs" --output "$bench/out" --jobs 2 --quiet --force)
read -r pil pilrss < <(measure "$PY" Benchmarks/pillow_peer.py "$bench/out" 2 "${inputs[@]}")

row() { awk -v n="$count" -v mb="$megabytes" -v s="$2" -v rss="$3" -v ref="$4" -v name="$1" \
  'BEGIN{printf "| %-34s | %8.2f | %8.1f | %8.1f | %9.0f | %6.2f× |\n", name, s, n/s, mb/s, rss/1024, ref/s}'; }
table=$(
  echo "| tool | seconds | assets/s | MB/s | peak RSS MiB | vs Pillow |"
  echo "|---|---:|---:|---:|---:|---:|"
  row "journal-media convert --jobs 1" "$jm1" "$jm1rss" "$pil"
  row "journal-media convert --jobs 2" "$jm2" "$jm2rss" "$pil"
  row "Pillow draft+thumbnail, 2 procs" "$pil" "$pilrss" "$pil"
)
scaling=$(awk -v a="$jm1" -v b="$jm2" 'BEGIN{printf "%.2f", a/b}')
echo
echo "$table"
echo
echo "journal-media --jobs 2 vs --jobs 1: ${scaling}×  (Pillow's peak RSS is its largest single process)"
colors=$("$colorbench")
echo "$colors"
echo
RUNS=$runs OUTPUT="$bench/dates-table.md" Benchmarks/dates.sh
echo
RUNS=$runs OUTPUT="$bench/posters-table.md" Benchmarks/posters.sh

if [ "${WRITE_RESULTS:-0}" = 1 ]; then
  {
    echo "# Benchmark results"
    echo
    echo "Made on $(date -u +%Y-%m-%d) with \`WRITE_RESULTS=1 make bench\` on a $(nproc)-core machine;"
    echo "best of $runs runs per tool, all tools run side by side in one invocation."
    echo "Inputs: $count files, $megabytes MB, made by \`Benchmarks/make_inputs.sh\`."
    echo "Renditions: the defaults (WebP 512 thumbnail + JPEG 1600 fallback)."
    echo
    echo "$table"
    echo
    echo "journal-media --jobs 2 vs --jobs 1: ${scaling}×."
    echo
    echo "Colour work (\`color-bench\`, included in every convert above): $colors."
    echo "Peak RSS is the maximum resident set of the measured process (for Pillow, of its largest process)."
    echo
    echo "## Capture dates (\`Benchmarks/dates.sh\`)"
    echo
    cat "$bench/dates-table.md"
    echo
    echo "## Video posters (\`Benchmarks/posters.sh\`)"
    echo
    cat "$bench/posters-table.md"
  } > Benchmarks/RESULTS.md
  echo "wrote Benchmarks/RESULTS.md"
fi

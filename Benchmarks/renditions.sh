#!/usr/bin/env bash
# Rendition throughput (issue 6; part of make bench): `journal-media convert` making the
# default renditions (WebP q80 in 512×512 + JPEG q85 in 1600×1600, plus colours and
# ThumbHash) at --jobs 1 and 2, beside two peers doing the same renditions on the same
# files, in one run:
#   - the C loop, Benchmarks/vips_loop.c built here with gcc: one vips_thumbnail per
#     rendition, 2 threads, libvips concurrency 1, operation cache off;
#   - Pillow (+ pillow-heif) from PyPI, Benchmarks/pillow_peer.py: draft mode,
#     exif_transpose, thumbnail (LANCZOS), save; 2 processes.
# Inputs: Benchmarks/make_inputs.sh (deterministic: 12 MP and 48 MP camera-like JPEGs, some
# sideways with a Display P3 profile, and 12 MP HEICs). Each tool runs RUNS times; the best
# wall time is kept, per-asset latencies (p50/p95) come from the last run, peak RSS is the
# largest seen. Then peak RSS of --jobs 2 on the 48 MP JPEGs alone, and the fallback JPEGs'
# PSNR against a careful reference for both journal-media and Pillow (Benchmarks/quality.py).
# Prints a table; with OUTPUT=FILE also writes it there. Needs: make bench-deps.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench=$root/.build/bench
runs=${RUNS:-3}
mkdir -p "$bench"

# Peers: Pillow and pillow-heif in a venv (numpy draws the inputs); the C loop with gcc.
if [ ! -x "$bench/venv/bin/python" ]; then
  python3 -m venv "$bench/venv"
  "$bench/venv/bin/pip" install -q --disable-pip-version-check pillow pillow-heif numpy
fi
PY=$bench/venv/bin/python
gcc -O2 -o "$bench/vips_loop" Benchmarks/vips_loop.c $(pkg-config --cflags --libs vips) -lpthread
PYTHON=$PY Benchmarks/make_inputs.sh "$bench/inputs"
bin=$(swift build -c release --show-bin-path)/journal-media
inputs=("$bench"/inputs/*)
count=${#inputs[@]}
megabytes=$(du -cb "${inputs[@]}" | tail -1 | awk '{printf "%.1f", $1/1048576}')
mix=$(ls "$bench/inputs" | sed 's/-[0-9]*\..*//' | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}' | sed 's/, $//')

source Benchmarks/measure.sh
measure_clean="$bench/out"
timings=$bench/jm-timings.jsonl

measure_stdout=$bench/jm1.txt
read -r jm1 jm1rss < <(measure "$bin" convert "$bench/inputs" --output "$bench/out" --jobs 1 --quiet --force --timings "$timings")
cp "$timings" "$bench/jm1-timings.jsonl"
read -r jm2 jm2rss < <(measure "$bin" convert "$bench/inputs" --output "$bench/out" --jobs 2 --quiet --force --timings "$timings")
cp "$timings" "$bench/jm2-timings.jsonl"
measure_stdout=$bench/cloop.txt
read -r cl cloopRss < <(measure "$bench/vips_loop" "$bench/out" 2 "${inputs[@]}")
measure_stdout=$bench/pillow.txt
read -r pil pilrss < <(measure "$PY" Benchmarks/pillow_peer.py "$bench/out" 2 "${inputs[@]}")

# Peak RSS of --jobs 2 on the 48 MP inputs alone.
rm -rf "$bench/inputs48"; mkdir -p "$bench/inputs48"
ln "$bench"/inputs/camera48mp-* "$bench/inputs48/"
measure_stdout=$bench/jm48.txt
read -r jm48 jm48rss < <(measure "$bin" convert "$bench/inputs48" --output "$bench/out" --jobs 2 --quiet --force)

# p50 and p95 per-asset latency in ms (nearest rank) of each tool's last run.
latency() { # KIND FILE
  python3 - "$1" "$2" <<'PY'
import json, math, sys
kind, path = sys.argv[1], sys.argv[2]
text = open(path).read()
if kind == "jm":
    values = [json.loads(line)["seconds"] for line in text.splitlines() if line.strip()]
elif kind == "c":
    values = [float(line.split()[1]) for line in text.splitlines() if line.startswith("latency ")]
else:
    values = json.loads(text.strip().splitlines()[-1])["latencies"]
values.sort()
rank = lambda p: values[max(0, math.ceil(p / 100 * len(values)) - 1)] * 1000
print(f"{rank(50):.0f} {rank(95):.0f}")
PY
}
read -r jm1p50 jm1p95 < <(latency jm "$bench/jm1-timings.jsonl")
read -r jm2p50 jm2p95 < <(latency jm "$bench/jm2-timings.jsonl")
read -r clp50 clp95 < <(latency c "$bench/cloop.txt")
read -r pilp50 pilp95 < <(latency pillow "$bench/pillow.txt")

row() { # NAME SECONDS RSS_KIB P50 P95
  awk -v n="$count" -v mb="$megabytes" -v s="$2" -v rss="$3" -v p50="$4" -v p95="$5" -v pil="$pil" -v cl="$cl" -v name="$1" \
    'BEGIN{printf "| %-38s | %6.2f | %6.2f | %5.1f | %5d | %5d | %5.0f | %5.2f× | %5.2f× |\n", name, s, n/s, mb/s, p50, p95, rss/1024, pil/s, cl/s}'; }
table=$(
  echo "| $count files ($mix), $megabytes MB, $(nproc) cores | seconds | assets/s | MB/s | p50 ms | p95 ms | peak RSS MiB | vs Pillow | vs C loop |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  row "journal-media convert --jobs 1" "$jm1" "$jm1rss" "$jm1p50" "$jm1p95"
  row "journal-media convert --jobs 2" "$jm2" "$jm2rss" "$jm2p50" "$jm2p95"
  row "C loop (vips_thumbnail ×2), 2 threads" "$cl" "$cloopRss" "$clp50" "$clp95"
  row "Pillow draft+thumbnail, 2 processes" "$pil" "$pilrss" "$pilp50" "$pilp95"
)
scaling=$(awk -v a="$jm1" -v b="$jm2" 'BEGIN{printf "%.2f", a/b}')
notes=$(
  echo "journal-media --jobs 2 vs --jobs 1: ${scaling}×."
  echo "Peak RSS of journal-media --jobs 2 on the 48 MP JPEGs alone: $(awk -v r="$jm48rss" 'BEGIN{printf "%.0f", r/1024}') MiB."
  echo "Latencies: journal-media's from --timings (read to write, per asset), the C loop's and Pillow's timed inside the worker; start-up is in seconds only."
  echo "Pillow's peak RSS is its largest process; Pillow and the C loop leave Display P3 pixels unconverted, journal-media converts them to sRGB."
)
# Output quality, side by side: both tools' fallback JPEGs against a careful reference
# (Benchmarks/quality.py: full decode, ICC → sRGB, LANCZOS to the same size).
rm -rf "$bench/quality-jm" "$bench/quality-pillow"; mkdir -p "$bench/quality-pillow"
"$bin" convert "$bench/inputs" --output "$bench/quality-jm" --quiet --force
"$PY" Benchmarks/pillow_peer.py "$bench/quality-pillow" 2 "${inputs[@]}" >/dev/null
quality=$("$PY" Benchmarks/quality.py "$bench/inputs" "$bench/quality-jm" "$bench/quality-pillow")

echo "$table"
echo
echo "$notes"
echo
echo "Fallback JPEGs against a reference (full decode, ICC → sRGB, LANCZOS; Benchmarks/quality.py):"
echo "$quality"
if [ -n "${OUTPUT:-}" ]; then
  { echo "$table"; echo; echo "$notes"; echo
    echo "Fallback JPEGs against a reference (full-size decode, EXIF orientation, ICC → sRGB with LittleCMS,"
    echo "LANCZOS to the same size; \`Benchmarks/quality.py\`), mean PSNR per group:"
    echo; echo "$quality"; } > "$OUTPUT"
fi

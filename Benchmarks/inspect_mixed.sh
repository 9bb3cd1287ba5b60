#!/usr/bin/env bash
# inspect on a real mixed folder (issue 19: ≥ 30× ExifTool's batch mode), part of make bench:
# `journal-media inspect` (release build) at --jobs 1 and the default, beside `exiftool -j -r`
# (one process for all files, ExifTool's fastest way), over one folder holding the dev corpus
# (../shared/corpus: phones, cameras, camcorders, editors, broken files) and Samples/. CPU
# seconds (user + system) are the like-for-like measure (ExifTool is single-threaded); wall
# seconds are shown too. Both tools exit 1 on the corpus's broken files; that is expected.
# Environment: RUNS (default 3) repetitions, best kept per tool; CORPUS (default
# ../shared/corpus); OUTPUT=FILE also writes the table there (for RESULTS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench=$root/.build/bench
runs=${RUNS:-3}
corpus=${CORPUS:-$root/../shared/corpus}
[ -d "$corpus" ] || corpus=/work/shared/corpus
folder=$bench/inspect-mixed
bin=$(swift build -c release --show-bin-path)/journal-media
[ -x "$bin" ] || swift build -c release --static-swift-stdlib --product journal-media >/dev/null

# The folder: a copy, so both tools read the same files from the same disk, cache warm.
rm -rf "$folder"; mkdir -p "$folder"
cp -r "$corpus" "$folder/corpus"
cp -r "$root/Samples" "$folder/Samples"
files=$(find "$folder" -type f ! -name '.*' | wc -l)
megabytes=$(du -sb "$folder" | awk '{printf "%.1f", $1/1048576}')

# best CMD...: runs CMD $runs times (stdout discarded; exit status 0 or 1 accepted) and prints
# the best "cpu_seconds wall_seconds" pair (by CPU).
best() {
  local bestcpu="" bestwall="" wall user sys cpu status
  for _ in $(seq "$runs"); do
    status=0
    /usr/bin/time -f "%e %U %S" -o "$bench/inspect-time.txt" "$@" >/dev/null 2>"$bench/inspect-stderr.txt" || status=$?
    if [ "$status" -gt 1 ]; then echo "benchmark command failed ($status): $*" >&2; tail -5 "$bench/inspect-stderr.txt" >&2; exit 1; fi
    read -r wall user sys < <(tail -1 "$bench/inspect-time.txt")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.3f", u + s}')
    if [ -z "$bestcpu" ] || awk "BEGIN{exit !($cpu < $bestcpu)}"; then bestcpu=$cpu; bestwall=$wall; fi
  done
  echo "$bestcpu $bestwall"
}

read -r etcpu etwall < <(best exiftool -j -r "$folder")
read -r j1cpu j1wall < <(best "$bin" inspect "$folder" --jobs 1)
read -r jncpu jnwall < <(best "$bin" inspect "$folder")

row() { awk -v name="$1" -v c="$2" -v w="$3" -v ec="$etcpu" -v ew="$etwall" \
  'BEGIN{printf "| %-34s | %7.2f | %7.2f | %6.1f× | %6.1f× |\n", name, c, w, ec/c, ew/w}'; }
table=$(
  echo "| inspect, $files real mixed files ($megabytes MB) | CPU s | wall s | CPU vs ExifTool | wall vs ExifTool |"
  echo "|---|---:|---:|---:|---:|"
  row "journal-media inspect --jobs 1" "$j1cpu" "$j1wall"
  row "journal-media inspect (--jobs $(nproc))" "$jncpu" "$jnwall"
  row "exiftool -j -r (one batch process)" "$etcpu" "$etwall"
)
echo "$table"
echo "(best of $runs runs by CPU; folder: the dev corpus + Samples/, copied to $folder)"
if [ -n "${OUTPUT:-}" ]; then echo "$table" > "$OUTPUT"; fi

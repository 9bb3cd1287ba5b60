#!/usr/bin/env bash
# make conformance: runs `journal-media convert` over ../shared/corpus (real files from
# other projects, with ExifTool's readings in groundtruth.json) when it exists, and
# reports outcomes: successes, failures by stage and reason, crashes, hangs, how the
# display sizes compare with ExifTool's, and (through `journal-media inspect`) how capture
# dates compare with ExifTool's. Opt-in: the required tests never need the corpus.
set -uo pipefail
cd "$(dirname "$0")/.."
corpus=${CORPUS:-../shared/corpus}
if [ ! -d "$corpus" ]; then
  echo "make conformance: no corpus at $corpus (set CORPUS=...); nothing to do"
  exit 0
fi
out=.build/conformance
rm -rf "$out"; mkdir -p "$out"
bin=$(swift build -c release --show-bin-path)/journal-media
start=$(date +%s.%N)
timeout 900 "$bin" convert "$corpus" --output "$out/out" --jobs "$(nproc)" --quiet 2>"$out/stderr.txt"
status=$?
end=$(date +%s.%N)
echo "convert exit status: $status (0 all ok, 1 some assets failed; 124 = timeout/hang, >128 = crash)"
awk -v s="$start" -v e="$end" 'BEGIN{printf "elapsed: %.1f s\n", e-s}'
python3 Benchmarks/conformance_report.py "$out/out/manifest.json" "$corpus/groundtruth.json"

echo
timeout 300 "$bin" inspect "$corpus" > "$out/inspect.jsonl" 2>"$out/inspect-stderr.txt"
inspect_status=$?
echo "inspect exit status: $inspect_status (1: some files are not media this toolkit reads)"
python3 Benchmarks/dates_report.py "$out/inspect.jsonl" "$corpus/groundtruth.json" "$corpus"

echo
# The manifest and every inspect line against the committed JSON Schemas (python3-jsonschema).
python3 Tests/SchemaCheck/validate-outputs.py --manifest "$out/out/manifest.json" --inspect "$out/inspect.jsonl"
schema_status=$?
[ "$status" -le 1 ] && [ "$inspect_status" -le 1 ] && [ "$schema_status" -eq 0 ]

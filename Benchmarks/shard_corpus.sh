#!/usr/bin/env bash
# Shards over a corpus (issue 15, a measurement): one unsharded `convert`, then
# `convert --shard I/N` for N = 1, 2, 5 (shards one after another, one output folder per N),
# `merge-manifests`, and shard_compare.py: each merged manifest must equal the unsharded one
# modulo timing fields, and every rendition file must be byte-identical.
# Usage: Benchmarks/shard_corpus.sh BIN [CORPUS] [OUT]   (default /work/shared/corpus, /tmp/shards/out)
# --timeout 600 keeps a slow decode on a loaded machine from turning into a timeout error in one run only.
set -u
BIN="$1"; CORPUS="${2:-/work/shared/corpus}"; OUT="${3:-/tmp/shards/out}"; JOBS=2
rm -rf "$OUT"; mkdir -p "$OUT"
start=$(date +%s.%N)
"$BIN" convert "$CORPUS" -o "$OUT/single" --jobs $JOBS --quiet --timeout 600 2>/dev/null
echo "single: exit $? in $(echo "$(date +%s.%N) - $start" | bc) s"
for N in 1 2 5; do
  start=$(date +%s.%N)
  for I in $(seq 0 $((N-1))); do
    "$BIN" convert "$CORPUS" -o "$OUT/n$N" --jobs $JOBS --quiet --timeout 600 --shard "$I/$N" 2>/dev/null
    echo "  shard $I/$N: exit $?"
  done
  "$BIN" merge-manifests "$OUT"/n$N/manifest.shard-*-of-$N.json -o "$OUT/n$N/manifest.json"
  echo "N=$N merge: exit $? ($(echo "$(date +%s.%N) - $start" | bc) s for the $N shards and the merge)"
done
python3 "$(dirname "$0")/shard_compare.py" "$OUT"

#!/usr/bin/env bash
# make conformance (part): legibility of rendered cards, checked honestly. Renders the
# sample bundles (Samples/suggestions/) with `journal-media suggestion`, reads every light
# and dark card of every size class back with tesseract (English + German models), and
# reports the word accuracy per class: the share of the Latin-script words drawn on each
# card (its layout's text runs in suggestion.json) that tesseract finds on it. Targets:
# tiles ≥ 90 %, portraits ≥ 95 %; below either the script exits 1 (landscapes are reported).
# Needs tesseract-ocr and tesseract-ocr-deu (the make target installs them).
set -uo pipefail
cd "$(dirname "$0")/.."
out=.build/card-ocr
rm -rf "$out"; mkdir -p "$out"
bin=$(swift build -c release --show-bin-path)/journal-media
"$bin" suggestion Samples/suggestions/*/suggestion.json --output "$out/cards" --quiet 2>"$out/stderr.txt"
status=$?
echo "suggestion exit status: $status (1 expected: edge-cases has broken references on purpose)"
python3 Benchmarks/card_ocr_report.py "$out/cards"

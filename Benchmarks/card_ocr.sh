#!/usr/bin/env bash
# make card-ocr: legibility of the rendered cards, checked by OCR. Draws every sample card
# (card-bench --write), reads each back with tesseract (English + German) and reports the
# share of the words drawn that tesseract finds, per card and overall. Cards whose texts are
# not in Latin script (the "scripts" sample) are listed but not scored: tesseract is given
# English and German only.
set -euo pipefail
cd "$(dirname "$0")/.."
folder=$(pwd)/.build/card-ocr
rm -rf "$folder"
swift build -c release --product card-bench >/dev/null
"$(swift build -c release --show-bin-path)/card-bench" --write "$folder" --with-texts >/dev/null
for png in "$folder"/*.png; do
  tesseract "$png" "${png%.png}.ocr" -l eng+deu --psm 3 >/dev/null 2>&1
done
python3 Benchmarks/card_ocr_report.py "$folder"

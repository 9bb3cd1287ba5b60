#!/usr/bin/env bash
# make bench: every benchmark side by side with its peers, in one run.
#   Benchmarks/renditions.sh  convert (default renditions) vs a libvips C loop and Pillow
#   Benchmarks/real_photos.sh the same per class of real-photo input (camera JPEGs 3–16 MP,
#                             small JPEGs, PNGs, HEICs), CPU time and the per-asset floor
#   color-bench               colours + ThumbHash per asset
#   card-bench                rendered cards: every size class (tile WebP, portrait and landscape PNG), light and dark
#   Benchmarks/dates.sh       inspect (capture dates) vs ExifTool
#   Benchmarks/inspect_mixed.sh inspect vs exiftool -j -r on a real mixed folder (corpus + Samples)
#   Benchmarks/posters.sh     video posters vs the ffmpeg CLI and ffmpegthumbnailer
#   Benchmarks/serve_load.py  journal-media serve under N clients vs convert, and overload
#   Benchmarks/render_peer.py on-demand 512 px WebP thumbnails (GET /v1/render) vs thumbor 7, wrk -c 8
#   Benchmarks/bundle-bench.sh  a whole suggestion bundle (media + cards), --jobs 1 and 2
#   Benchmarks/attachments.sh notification MP4 attachments vs the ffmpeg CLI
# Environment: RUNS (default 3) repetitions per tool, best kept. With WRITE_RESULTS=1 the
# tables are also written to Benchmarks/RESULTS.md with the date and command.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=$(pwd)/.build/bench
runs=${RUNS:-3}
mkdir -p "$bench"
swift build -c release --static-swift-stdlib --product color-bench >/dev/null
swift build -c release --static-swift-stdlib --product card-bench >/dev/null
colorbench=$(swift build -c release --show-bin-path)/color-bench
cardbench=$(swift build -c release --show-bin-path)/card-bench

echo "machine: $(nproc) cores; best of $runs runs per tool"
echo
RUNS=$runs OUTPUT="$bench/renditions-table.md" Benchmarks/renditions.sh
echo
RUNS=$runs OUTPUT="$bench/real-photos-table.md" Benchmarks/real_photos.sh
echo
colors=$("$colorbench")
echo "$colors"
echo
cards1=$("$cardbench" --jobs 1 --rounds "$runs")
cards2=$("$cardbench" --jobs 2 --rounds "$runs")
echo "$cards1"
echo "$cards2"
echo
RUNS=$runs OUTPUT="$bench/dates-table.md" Benchmarks/dates.sh
echo
RUNS=$runs OUTPUT="$bench/inspect-mixed-table.md" Benchmarks/inspect_mixed.sh
echo
RUNS=$runs OUTPUT="$bench/posters-table.md" Benchmarks/posters.sh
echo
swift build -c release --static-swift-stdlib --product journal-media >/dev/null
# The 12 MP JPEGs renditions.sh made (Benchmarks/make_inputs.sh).
mkdir -p "$bench/serve-inputs"
find "$bench/inputs" -maxdepth 1 -name 'camera12mp-*.jpg' -exec ln -sf {} "$bench/serve-inputs/" \;
echo
python3 Benchmarks/serve_load.py "$(swift build -c release --show-bin-path)/journal-media" "$bench/serve-inputs" \
  --jobs "$(nproc)" --rounds "$runs" | tee "$bench/serve-table.md"
# On-demand thumbnails vs thumbor 7 (issue 31): the corpus's real JPEGs over 100 KB, copied
# (the storage root serves no symlink leaving it), else the 12 MP JPEGs above.
rm -rf "$bench/render-photos" && mkdir -p "$bench/render-photos"
if [ -d "${CORPUS:-../shared/corpus}" ]; then
  find "${CORPUS:-../shared/corpus}" -iname '*.jp*g' -size +100k -exec cp {} "$bench/render-photos/" \;
fi
[ -n "$(ls "$bench/render-photos")" ] || cp "$bench/serve-inputs/"*.jpg "$bench/render-photos/"
echo
python3 Benchmarks/render_peer.py "$(swift build -c release --show-bin-path)/journal-media" \
  "$bench/thumbor-venv/bin/thumbor" "$bench/render-photos" | tee "$bench/render-table.md"
echo
RUNS=$runs OUTPUT="$bench/bundle-table.md" Benchmarks/bundle-bench.sh
echo
RUNS=$runs OUTPUT="$bench/attachments-table.md" Benchmarks/attachments.sh

if [ "${WRITE_RESULTS:-0}" = 1 ]; then
  {
    echo "# Benchmark results"
    echo
    echo "Made on $(date -u +%Y-%m-%d) with \`WRITE_RESULTS=1 RUNS=$runs make bench\` on a $(nproc)-core machine"
    echo "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), shared and noisy: read the ratios, not the seconds)."
    echo "Each tool ran $runs times, best wall time kept, all tools side by side in one invocation."
    echo
    echo "## Renditions (\`Benchmarks/renditions.sh\`)"
    echo
    echo "Default renditions: WebP q80 fitting 512×512 and JPEG q85 fitting 1600×1600, from inputs made"
    echo "by \`Benchmarks/make_inputs.sh\`."
    echo
    cat "$bench/renditions-table.md"
    echo
    echo "### Per class of real-photo input (\`Benchmarks/real_photos.sh\`)"
    echo
    cat "$bench/real-photos-table.md"
    echo
    echo "Colour work (\`color-bench\`, included in every convert above): $colors."
    echo
    echo "## Cards (\`card-bench\`)"
    echo
    echo "Every sample card type (Benchmarks/CardBench/CardSamples.swift) drawn in every size class"
    echo "(tile 512×512 WebP, portrait 1200×1500 PNG, landscape 1600×1000 PNG), light and dark, the way"
    echo "the product does it (CardSource + RenditionStep; target ≤ 60 ms CPU per item at --jobs 1);"
    echo "CPU time of the whole process per item (six cards):"
    echo
    echo "- $cards1"
    echo "- $cards2"
    echo
    echo "## Capture dates (\`Benchmarks/dates.sh\`)"
    echo
    cat "$bench/dates-table.md"
    echo
    echo "### On a real mixed folder (\`Benchmarks/inspect_mixed.sh\`)"
    echo
    cat "$bench/inspect-mixed-table.md"
    echo
    echo "## Video posters (\`Benchmarks/posters.sh\`)"
    echo
    cat "$bench/posters-table.md"
    echo
    echo "## \`journal-media serve\` under load (\`Benchmarks/serve_load.py\`)"
    echo
    cat "$bench/serve-table.md"
    echo
    echo "## Notification attachments (\`Benchmarks/attachments.sh\`)"
    echo
    cat "$bench/attachments-table.md"
  } > Benchmarks/RESULTS.md
  echo "wrote Benchmarks/RESULTS.md"
fi

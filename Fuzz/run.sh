#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer + AddressSanitizer, the Swift toolchain's own runtime) and
# runs each for FUZZ_SECONDS (default 60) from seeds: the matching files of Samples/, the
# regression inputs in Fuzz/Regressions/<target>/, and ../shared/corpus when it exists.
# A crash leaves its input in Fuzz/Findings/; commit it under Fuzz/Regressions/<target>/ once
# fixed, where every later run replays it first. Prints one summary line per target.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
seconds=${FUZZ_SECONDS:-60}
scratch=${FUZZ_SCRATCH:-$root/.build-fuzz}
corpus=${FUZZ_CORPUS:-$root/../shared/corpus}
# fuzz-location looks up the nearest place of every location it finds.
export JOURNAL_MEDIA_PLACES=${JOURNAL_MEDIA_PLACES:-$root/Data/places.bin}
# Known leaks outside this code (Fuzz/lsan.supp says which and why).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/lsan.supp}
targets=${FUZZ_TARGETS:-"jpeg png riff heif tiff psd jp2 makernote xmp datetext bundle location pngdeflate"}

# lld: gold fails on the fuzz binaries (an internal error in its diagnostics). -Xcc: the C
# target (the PNG fallback's coder) gets AddressSanitizer and libFuzzer's coverage too.
swift build --package-path "$here" --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld \
    -Xcc -fsanitize=address,fuzzer-no-link || exit 2
bin=$(swift build --package-path "$here" --scratch-path "$scratch" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$here/Findings"

# Seeds by the extension a file's content usually has (the fuzzers mutate them, so a wrong
# guess only costs a seed).
seed_patterns() {
    case $1 in
        jpeg) echo "*.jpg *.jpeg *.JPG *.JPEG" ;;
        png|pngdeflate) echo "*.png *.PNG" ;;
        riff) echo "*.webp *.WEBP" ;;
        heif) echo "*.heic *.HEIC *.heif *.heics *.avif *.AVIF" ;;
        psd) echo "*.psd *.PSD *.psb" ;;
        jp2) echo "*.jp2 *.j2k *.jpx *.jpf *.j2c" ;;
        xmp) echo "*.xmp *.XMP" ;;
        bundle) echo "*.json" ;;
        tiff) echo "*.tif *.tiff *.TIF *.dng *.DNG *.nef *.cr2 *.arw" ;;
        makernote|datetext|location) echo "" ;;
    esac
}

status=0
for target in $targets; do
    seeds="$work/$target"
    mkdir -p "$seeds"
    for pattern in $(seed_patterns "$target"); do
        for folder in "$root/Samples" "$corpus"; do
            [ -d "$folder" ] || continue
            find "$folder" -type f -name "$pattern" -size -2M -print0 2>/dev/null |
                head -z -n 300 | xargs -0 -r cp -t "$seeds" 2>/dev/null
        done
    done
    case $target in
        datetext) printf '2023:06:01 14:03:22' > "$seeds/a"; printf '2023-06-01T14:03:22.120+02:00' > "$seeds/b"
                  printf 'Thu, 01 Jun 2023 12:03:22 GMT' > "$seeds/c"; printf 'PXL_20230101_120000123' > "$seeds/d" ;;
        xmp) printf '<x:xmpmeta><rdf:Description exif:DateTimeOriginal="2023-06-01T14:03:22+02:00" photoshop:DateCreated="2023-06-01"/></x:xmpmeta>' > "$seeds/a" ;;
        makernote) printf 'Apple iOS\0\0\1MM\0\1\0\21\0\2\0\0\0\45\0\0\0\24' > "$seeds/a" ;;
        location) printf '+48.8584+002.2945+035.000/' > "$seeds/a"; printf '+485130-0021740CRSWGS_84/' > "$seeds/b"
                  printf '48,51.504N' > "$seeds/c"; printf '35/1' > "$seeds/d"
                  # The TIFF blocks (EXIF with a GPS IFD) of the location samples' JPEGs.
                  for f in "$root"/Samples/location/*.jpg; do
                      python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); i=d.find(b"Exif\0\0")
if i >= 0: open(sys.argv[2],"wb").write(d[i+6:])' "$f" "$seeds/tiff-$(basename "$f")"
                  done ;;
    esac
    [ -d "$here/Regressions/$target" ] && cp "$here/Regressions/$target"/* "$seeds/" 2>/dev/null
    seedsN=$(ls "$seeds" | wc -l)
    log="$work/$target.log"
    "$bin/fuzz-$target" "$seeds" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$here/Findings/$target-" -print_final_stats=1 > "$log" 2>&1
    result=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
    corpusN=$(ls "$seeds" | wc -l)
    if [ $result -eq 0 ]; then verdict="no finding"; else verdict="FINDING (exit $result, see Fuzz/Findings/)"; status=1; tail -40 "$log"; fi
    echo "fuzz-$target: ${runs:-?} executions in ${seconds} s, coverage ${cov:-?} edges / ${ft:-?} features, $seedsN seeds → corpus of $corpusN: $verdict"
done
exit $status

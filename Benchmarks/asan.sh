#!/usr/bin/env bash
# Builds journal-media with AddressSanitizer into .build-asan and converts Samples/ and (when
# present) ../shared/corpus with it, --jobs 2. Prints the run's summary and any ASan report;
# exits 1 when ASan reported something. Expect it to be several times slower than release.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch="$root/.build-asan"
# --sanitize=address instruments the C targets too (CJPEGDecode, CStillEncode, CResampleKernel,
# CLibavLoader, …); -Xswiftc -sanitize=address alone left their buffer accesses unchecked.
swift build --package-path "$root" --scratch-path "$scratch" --product journal-media \
    --sanitize=address || exit 2
bin=$(swift build --package-path "$root" --scratch-path "$scratch" --sanitize=address --show-bin-path)/journal-media
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs=("$root/Samples")
[ -d "$root/../shared/corpus" ] && inputs+=("$root/../shared/corpus")
found=0
for input in "${inputs[@]}"; do
    # detect_leaks=0: libvips and GLib keep process-lifetime caches that LeakSanitizer lists.
    ASAN_OPTIONS=detect_leaks=0:halt_on_error=0:log_path="$work/asan" \
        "$bin" convert "$input" --output "$work/out-$(basename "$input")" --jobs 2 --quiet 2> "$work/stderr"
    status=$?
    echo "$(basename "$input"): exit $status ($(grep -c 'journal-media: error' "$work/stderr") assets failed)"
    [ $status -gt 1 ] && found=1
done
if ls "$work"/asan.* >/dev/null 2>&1; then
    found=1
    cat "$work"/asan.*
fi
[ $found -eq 0 ] && echo "AddressSanitizer: no report"
exit $found

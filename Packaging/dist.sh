#!/usr/bin/env bash
# make dist: a release binary with the Swift runtime linked statically, its man page and its
# shell completions, in dist/. The binary then needs only Debian 12's shared C libraries
# (libvips42, libexif12, libssl3, libjpeg62-turbo, libwebp7, glibc, and libavformat59, libavcodec59, libavutil57, libswscale6,
# which it opens with dlopen on first use: CLibavLoader); libavfilter is opened the same way when
# an HDR poster needs it (see Package.swift's CFFmpeg).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
out=dist
rm -rf "$out.tmp" && mkdir -p "$out.tmp/completions" "$out.tmp/man"
# The same flags as `make release` (the Makefile's RELEASE_FLAGS), so both share .build:
# switching --static-swift-stdlib on and off in one folder would rebuild every module.
$SWIFT build -c release --static-swift-stdlib --product journal-media
bin=$($SWIFT build -c release --static-swift-stdlib --show-bin-path)/journal-media
cp "$bin" "$out.tmp/journal-media"
strip --strip-unneeded "$out.tmp/journal-media"
# The place-name table (GeoNames, CC BY 4.0), found beside the binary (PlaceIndex).
cp Data/places.bin "$out.tmp/places.bin"

# The man page: argument-parser's generate-manual tool reads the binary's own help
# (--experimental-dump-help), so the page says what --help says. Asking its package plugin for
# --help builds the tool without building the package again. The hand-written EXIT STATUS,
# FILES, EXAMPLES and SEE ALSO sections (Packaging/man-extra.mdoc) go before AUTHORS.
tool=$(find .build -path '*/debug/generate-manual-tool' -type f -print -quit)
if [ -z "$tool" ]; then
  $SWIFT package plugin generate-manual --help >/dev/null
  tool=$(find .build -path '*/debug/generate-manual-tool' -type f -print -quit)
fi
[ -n "$tool" ] || { echo "dist: argument-parser's generate-manual tool was not built" >&2; exit 1; }
"$tool" "$out.tmp/journal-media" --date "$(git log -1 --format=%cs 2>/dev/null || date -u +%F)" \
  --authors "The JournalMedia authors" --output-directory "$out.tmp/man"
awk -v extra=Packaging/man-extra.mdoc '
  /^\.Sh AUTHORS/ && !done { while ((getline line < extra) > 0) print line; done = 1 }
  { print }
  END { if (!done) while ((getline line < extra) > 0) print line }' "$out.tmp/man/journal-media.1" > "$out.tmp/man/page"
mv "$out.tmp/man/page" "$out.tmp/man/journal-media.1"
# Completions from the binary itself.
for shell in bash zsh fish; do
  "$out.tmp/journal-media" --generate-completion-script "$shell" > "$out.tmp/completions/journal-media.$shell"
done
# The binary must not need the toolchain's runtime.
if ldd "$out.tmp/journal-media" | grep -E 'libswift|libFoundation|not found'; then
  echo "dist: the binary still needs Swift runtime libraries (above)" >&2
  exit 1
fi
rm -rf "$out" && mv "$out.tmp" "$out"
echo "dist/: $(ls dist | tr '\n' ' ')"

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

# The man page: Packaging/manpage.py reads the binary's own help (--experimental-dump-help),
# so each command's synopsis and summary say what --help says, and appends the hand-written
# ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES and SEE ALSO sections (Packaging/man-extra.mdoc).
python3 Packaging/manpage.py "$out.tmp/journal-media" Packaging/man-extra.mdoc \
  "$(LC_ALL=C date -u -d "$(git log -1 --format=%cs 2>/dev/null || date -u +%F)" '+%B %-d, %Y')" > "$out.tmp/man/journal-media.1"
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

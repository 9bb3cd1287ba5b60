#!/usr/bin/env bash
# make deb-check: proves the .deb works on a Debian 12 machine without a Swift toolchain.
# Creates a clean bookworm root with debootstrap (minbase, from the machine's own Debian
# mirror), installs dist/journal-media_*.deb there with apt-get (which pulls exactly the
# Depends: libraries), then, inside the root with chroot, runs `journal-media --version`,
# reads the man page, loads the bash completion, starts `serve` with the packaged
# /etc/journal-media/serve.json and converts Samples/. Needs root.
# The root is kept in .build/deb-root between runs (DEB_ROOT_FRESH=1 makes it anew).
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls -t dist/journal-media_*.deb | head -1)
root=$(pwd)/.build/deb-root
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}
if [ "${DEB_ROOT_FRESH:-0}" = 1 ] || [ ! -x "$root/usr/bin/apt-get" ]; then
  rm -rf "$root"
  echo "deb-check: debootstrap bookworm into $root from $mirror"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
fi
cleanup() { umount "$root/proc" 2>/dev/null || true; }
trap cleanup EXIT
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
if [ -e "$root/opt/swift" ] || chroot "$root" sh -c 'command -v swift' >/dev/null 2>&1; then
  echo "deb-check: the root has a Swift toolchain; it must not" >&2; exit 1
fi
cp "$deb" "$root/tmp/"
rm -rf "$root/tmp/Samples" "$root/tmp/out" && cp -r Samples "$root/tmp/Samples"
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "/tmp/$(basename "$deb")" man-db bash-completion >/dev/null
echo "deb-check: installed $(chroot "$root" dpkg-query -W -f='${Package} ${Version}' journal-media)"
chroot "$root" journal-media --version
chroot "$root" sh -c 'ls /opt /usr/lib/swift 2>/dev/null | grep -i swift' && { echo "deb-check: Swift runtime found in the root" >&2; exit 1; } || true
chroot "$root" sh -c 'MANWIDTH=80 man -l /usr/share/man/man1/journal-media.1.gz 2>/dev/null | head -5'
chroot "$root" bash -c 'source /usr/share/bash-completion/bash_completion && source /usr/share/bash-completion/completions/journal-media && complete -p journal-media'
# The unit and the default configuration for `serve`: installed, and the configuration read by
# the installed binary (it starts on a free loopback port and is stopped again).
chroot "$root" test -f /usr/lib/systemd/system/journal-media.service || { echo "deb-check: no systemd unit" >&2; exit 1; }
chroot "$root" dpkg-query --control-show journal-media conffiles | grep -qx /etc/journal-media/serve.json \
  || { echo "deb-check: /etc/journal-media/serve.json is not a conffile" >&2; exit 1; }
chroot "$root" sh -c 'journal-media serve --config /etc/journal-media/serve.json --port 0 > /tmp/serve.log 2>&1 & pid=$!
  for i in $(seq 100); do grep -q "^listening on" /tmp/serve.log && break; sleep 0.1; done
  kill $pid; grep "^listening on" /tmp/serve.log' || { echo "deb-check: serve did not start with /etc/journal-media/serve.json" >&2; exit 1; }
status=0
chroot "$root" journal-media convert /tmp/Samples --output /tmp/out --quiet || status=$?
[ "$status" -le 1 ] || { echo "deb-check: convert exited $status" >&2; exit 1; }
count=$(chroot "$root" find /tmp/out -type f ! -name 'manifest*' ! -name '.*' | wc -l)
echo "deb-check: convert over Samples/ in the clean root exited $status and wrote $count renditions"
[ "$count" -gt 50 ] || { echo "deb-check: too few renditions" >&2; exit 1; }
echo "deb-check: OK"

#!/usr/bin/env bash
# Real-photo classes (issue 19; part of make bench): journal-media convert --jobs 2 (default
# renditions) beside Pillow (Benchmarks/pillow_peer.py, 2 processes, the same renditions; PNG
# fallback for sources with real transparency on both sides) and the libvips C loop
# (Benchmarks/vips_loop.c, 2 threads), per class of input:
#   camera  camera-like JPEGs 3–16 MP whose long side (2048–4608 px) no power-of-two DCT
#           shrink fits to 1600 px, some sideways, some tagged sRGB or Display P3
#   small   JPEGs under 200 KB (640–1200 px): the fixed per-asset costs
#   png     PNGs, opaque photos and RGBA "stickers" with real transparency
#   heic    phone-like HEICs (x265 through libheif), 12 MP, and real ones: the 13 phone and
#           camera photos of pillow-heif's sdist (Benchmarks/fetch_heic_photos.sh) and the corpus's
# made by Benchmarks/photo_like.py with the vips CLI (deterministic, no downloads). When the
# corpus (CORPUS, default ../shared/corpus) exists, its real files of each class are added
# (camera JPEGs over 500 KB, JPEGs of 20–200 KB, PNGs over 20 KB, HEICs).
# Beside them, libvips 8.18 through pyvips (Benchmarks/pyvips_peer.py: the PyPI wheels, one
# libvips thread per process, 2 processes), the libvips a sharp or pyvips user runs today; for
# HEICs, which that wheel cannot decode (no HEVC decoder), pyvips on Debian's libvips instead.
# Per class, RUNS rounds run every tool once in turn (interleaved: a load spike on a shared
# machine hits all tools, not one tool's runs; the load average is printed per class; SCHED_RR=1
# runs the tools ahead of other processes, see measure_once). Per class and tool: best wall time
# of RUNS, CPU seconds (user + system) of that run, peak RSS; ratios vs Pillow and vs pyvips (wall and CPU) and vs the C loop. For HEICs also the
# HEVC-decode floor (heic-bench floor: libavcodec on one thread decoding the primary image's
# tiles, nothing else) and journal-media's CPU per asset as a multiple of it. Then the per-asset CPU floor
# (Benchmarks/limit.c: decode at the best scale + two bilinear resizes + both encodes) and
# journal-media's CPU per asset against it, and the camera class's PSNR (Benchmarks/quality.py).
# With OUTPUT=FILE the tables are also written there. CONVERT_BENCH=PATH times that
# convert-bench binary (the same batch, no server dependencies) instead of the CLI;
# BEFORE_BENCH=PATH adds a row for another convert-bench build (before/after a change).
# convert-bench runs the batch without the CLI's AllocatorTuning, so CONVERT_BENCH also
# compares the CLI with and without its malloc settings. CLASSES="small png" runs a subset.
# Exit status 1 from journal-media (some inputs failed, by design for broken corpus files)
# is accepted; any other failure stops the run. BIN=PATH times that journal-media binary
# instead of this checkout's release build (another branch's, for interleaved before/after runs).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench=$root/.build/bench
runs=${RUNS:-3}
corpus=${CORPUS:-$root/../shared/corpus}
mkdir -p "$bench"
if [ ! -x "$bench/venv/bin/python" ]; then
  python3 -m venv "$bench/venv"
  "$bench/venv/bin/pip" install -q --disable-pip-version-check pillow pillow-heif numpy
fi
PY=$bench/venv/bin/python
if ! "$PY" -c "import pyvips" 2>/dev/null; then
  # PKG_CONFIG=/bin/false: pyvips' ABI mode loading the pyvips-binary wheel's libvips, not
  # a build against Debian's 8.14.
  PKG_CONFIG=/bin/false "$bench/venv/bin/pip" install -q --disable-pip-version-check pyvips pyvips-binary
fi
pyvips_minor=$("$PY" -c "import pyvips; print(pyvips.version(1))")
[ "$pyvips_minor" -ge 18 ] || { echo "pyvips loads libvips 8.$pyvips_minor, not 8.18 or later" >&2; exit 1; }
# The pyvips-binary wheel cannot decode HEVC ("Support for this compression format has not
# been built in: HEVC"), and neither can sharp's prebuilt libvips. For HEICs the pyvips peer is
# therefore pyvips on Debian's libvips (the one journal-media links, with libheif + libde265):
# a venv of its own with pyvips alone, whose ABI mode loads the system's libvips.
PY_DEB=$bench/venv-system-vips/bin/python
if [[ " ${CLASSES:-camera small png heic} " == *" heic "* ]] && ! "$PY_DEB" -c "import pyvips" 2>/dev/null; then
  python3 -m venv "$bench/venv-system-vips"
  PKG_CONFIG=/bin/false "$bench/venv-system-vips/bin/pip" install -q --disable-pip-version-check pyvips
fi
gcc -O2 -o "$bench/vips_loop" Benchmarks/vips_loop.c $(pkg-config --cflags --libs vips) -lpthread
gcc -O2 -o "$bench/limit" Benchmarks/limit.c $(pkg-config --cflags --libs vips)
bin=${BIN:-$(swift build -c release --show-bin-path)/journal-media}
# make release links the Swift runtime statically; a plain `swift build -c release` in the same
# folder replaces that binary with one that loads it, which starts some 20 ms slower per process.
if readelf -d "$bin" 2>/dev/null | grep -q 'libswiftCore'; then
  echo "note: $bin loads the Swift runtime dynamically; make release (--static-swift-stdlib) is what make bench measures" >&2
fi
heic_bench=$(dirname "$bin")/heic-bench
real=$bench/real

classes=${CLASSES:-camera small png heic}
wants() { [[ " $classes " == *" $1 "* ]]; }
# Generated inputs, made once (each file only when missing, so an interrupted run resumes),
# for the classes asked for.
if [ ! -f "$real/.complete" ]; then
  mkdir -p "$real/camera" "$real/small" "$real/png" "$real/heic"
  work=$(mktemp -d)
  photo() { "$PY" Benchmarks/photo_like.py "$@"; }
  i=0
  wants camera && for size in 2048x1536 2304x1728 2592x1944 2816x2112 3264x2448 3648x2736 4000x3000 4608x3456; do
    i=$((i + 1)); w=${size%x*}; h=${size#*x}; out=$real/camera/cam-$i.jpg
    [ -f "$out" ] && continue
    photo "$work/p.ppm" "$w" "$h" "$i"
    case $((i % 4)) in
      0) vips jpegsave "$work/p.ppm" "$out" --Q 92 --profile srgb ;;
      1) vips jpegsave "$work/p.ppm" "$out" --Q 90 ;;
      2) vips rot "$work/p.ppm" "$work/r.v" d270
         vips jpegsave "$work/r.v" "$out" --Q 90 --profile srgb
         exiftool -q -overwrite_original -Orientation#=6 "$out" 2>/dev/null || true ;;
      3) vips icc_transform "$work/p.ppm" "$work/q.v" p3 --input-profile srgb
         vips jpegsave "$work/q.v" "$out" --Q 92 --profile p3 ;;
    esac
  done
  i=8
  wants small && for size in 640x480 800x600 1024x768 1200x900 960x640 1080x720 720x960 1000x750; do
    i=$((i + 1)); w=${size%x*}; h=${size#*x}; out=$real/small/small-$i.jpg
    [ -f "$out" ] && continue
    photo "$work/p.ppm" "$w" "$h" "$i"
    vips jpegsave "$work/p.ppm" "$out" --Q 80
  done
  i=16
  wants png && for size in 1200x900 2000x1500 1024x1024; do
    i=$((i + 1)); w=${size%x*}; h=${size#*x}
    if [ ! -f "$real/png/photo-$i.png" ]; then
      photo "$work/p.ppm" "$w" "$h" "$i"
      vips pngsave "$work/p.ppm" "$real/png/photo-$i.png"
    fi
    if [ ! -f "$real/png/sticker-$i.png" ]; then
      photo "$work/a.pam" "$w" "$h" "$((i + 50))" alpha
      vips pngsave "$work/a.pam" "$real/png/sticker-$i.png"
    fi
  done
  i=19
  wants heic && for size in 4032x3024 3024x4032 4032x2268; do
    i=$((i + 1)); w=${size%x*}; h=${size#*x}; out=$real/heic/phone-$i.heic
    [ -f "$out" ] && continue
    photo "$work/p.ppm" "$w" "$h" "$i"
    vips heifsave "$work/p.ppm" "$out" --Q 50 --compression hevc
  done
  rm -rf "$work"
  [ "$classes" = "camera small png heic" ] && touch "$real/.complete"
fi

# The corpus's real files of each class, linked in beside the generated ones.
add_corpus() { # CLASS FIND-ARGS...
  local class=$1; shift
  [ -d "$corpus" ] || return 0
  find "$corpus" -type f "$@" -print0 | sort -z | while IFS= read -r -d '' f; do
    # Copied, not linked: convert does not follow symbolic links inside a folder.
    cp "$f" "$real/$class/corpus-$(echo "$f" | md5sum | cut -c1-8)-$(basename "$f")"
  done
}
# "$real/": find does not descend a symbolic link given as its start (a worktree's
# .build/bench/real linked to another's), which left every worktree's copies piling up.
find "$real/" -name 'corpus-*' -delete
add_corpus camera \( -iname '*.jpg' -o -iname '*.jpeg' \) -size +500k
add_corpus small \( -iname '*.jpg' -o -iname '*.jpeg' \) -size +20k -size -200k
add_corpus png -iname '*.png' -size +20k
add_corpus heic -iname '*.heic'
# Real phone and camera HEIFs from pillow-heif's sdist (Benchmarks/fetch_heic_photos.sh, run by
# make bench-deps; fetched here when missing), named like the corpus's copies.
if wants heic; then
  Benchmarks/fetch_heic_photos.sh "$bench/heic-photos"
  for f in "$bench/heic-photos"/*; do cp "$f" "$real/heic/corpus-pillow-heif-$(basename "$f")"; done
fi

source Benchmarks/measure.sh
# measure_once CMD...: one run of CMD, printing "seconds cpu_seconds peak_rss_kib" (wall,
# user + system, largest resident set, from /usr/bin/time). With accept_one=1 set, exit status 1
# (some assets failed) counts as a finished run. With SCHED_RR=1 (root only) the command runs
# under chrt -r 1: ahead of every ordinary process, so a shared machine measures like an idle
# one (the other users' work waits meanwhile).
measure_once() {
  local secs kib user sys status=0
  rm -rf "$bench/real-out"; mkdir -p "$bench/real-out"
  local sched=()
  [ "${SCHED_RR:-0}" = 1 ] && sched=(chrt -r 1)
  "${sched[@]}" /usr/bin/time -f "%e %M %U %S" -o "$bench/time.txt" "$@" >"$bench/stdout.txt" 2>"$bench/stderr.txt" || status=$?
  if [ "$status" -ne 0 ] && ! { [ "$status" -eq 1 ] && [ "${accept_one:-0}" = 1 ]; }; then
    echo "benchmark command failed ($status): $*" >&2; cat "$bench/stderr.txt" >&2; exit 1
  fi
  # /usr/bin/time notes a non-zero status on its first line; the figures are on the last.
  read -r secs kib user sys < <(tail -1 "$bench/time.txt")
  echo "$secs $(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u + s}') $kib"
}
# run_tool TOOL: one run of that tool over the current class ($class, $files).
run_tool() {
  case $1 in
    jm) if [ -n "${CONVERT_BENCH:-}" ]; then accept_one=1 measure_once "$CONVERT_BENCH" "$real/$class" "$bench/real-out" 2
        else accept_one=1 measure_once "$bin" convert "$real/$class" --output "$bench/real-out" --jobs 2 --quiet --force; fi ;;
    before) accept_one=1 measure_once "$BEFORE_BENCH" "$real/$class" "$bench/real-out" 2 ;;
    pillow) measure_once "$PY" Benchmarks/pillow_peer.py "$bench/real-out" 2 "${files[@]}" ;;
    pyvips) measure_once "$PY" Benchmarks/pyvips_peer.py "$bench/real-out" 2 "${files[@]}" ;;
    pyvips_system) measure_once "$PY_DEB" Benchmarks/pyvips_peer.py "$bench/real-out" 2 "${files[@]}" ;;
    cloop) measure_once "$bench/vips_loop" "$bench/real-out" 2 "${files[@]}" ;;
  esac
}
# measure_class TOOL...: RUNS rounds, each running every tool once in turn (interleaved, so a
# load spike on a shared machine hits every tool alike rather than one tool's runs); per tool
# the best wall time, the CPU seconds of that run and the largest resident set, in the
# associative arrays wall, cpu and rss. Sets load_range to the 1-minute load average before
# and after the class.
measure_class() {
  local t s c k
  wall=() cpu=() rss=()
  local load_before; load_before=$(cut -d' ' -f1 /proc/loadavg)
  for _ in $(seq "$runs"); do
    for t in "$@"; do
      read -r s c k < <(run_tool "$t")
      if [ -z "${wall[$t]:-}" ] || awk "BEGIN{exit !($s < ${wall[$t]})}"; then wall[$t]=$s; cpu[$t]=$c; fi
      [ "$k" -gt "${rss[$t]:-0}" ] && rss[$t]=$k
    done
  done
  load_range="$load_before–$(cut -d' ' -f1 /proc/loadavg)"
}
declare -A wall cpu rss
loads=""
rr_note=""
[ "${SCHED_RR:-0}" = 1 ] && rr_note=" (tools run under chrt -r 1)"

table="| class (files) | tool, 2 workers | seconds | assets/s | CPU s | peak RSS MiB | vs Pillow wall | vs Pillow CPU | vs pyvips wall | vs pyvips CPU | vs C loop wall |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
floors="| class | HEVC-decode floor ms/asset (libavcodec, 1 thread, tiles only) | journal-media CPU ms/asset | ratio to floor |
|---|---:|---:|---:|"
limits="| class | floor ms/asset (decode + resize + encode) | journal-media CPU ms/asset | ratio to floor |
|---|---:|---:|---:|"
for class in $classes; do
  files=("$real/$class"/*)
  n=${#files[@]}
  tools=(jm)
  [ -n "${BEFORE_BENCH:-}" ] && tools+=(before)
  tools+=(pillow)
  # The pyvips-binary wheel has no HEVC decoder: for HEICs, pyvips on the system's libvips.
  if [ "$class" = heic ]; then tools+=(pyvips_system); else tools+=(pyvips); fi
  tools+=(cloop)
  measure_class "${tools[@]}"
  loads+="${loads:+, }$class $load_range"
  jw=${wall[jm]} jc=${cpu[jm]} jr=${rss[jm]}
  pw=${wall[pillow]} pc=${cpu[pillow]} pr=${rss[pillow]}
  vw=${wall[pyvips]:-${wall[pyvips_system]:-0}} vc=${cpu[pyvips]:-${cpu[pyvips_system]:-0}}
  vr=${rss[pyvips]:-${rss[pyvips_system]:-0}}
  cw=${wall[cloop]} cc=${cpu[cloop]} cr=${rss[cloop]}
  row() { awk -v c="$class ($n)" -v t="$1" -v s="$2" -v cpu="$3" -v rss="$4" -v n="$n" -v pw="$pw" -v pc="$pc" -v vw="$vw" -v vc="$vc" -v cw="$cw" \
    'BEGIN{v = vw > 0 ? sprintf("%.2f× | %.2f×", vw/s, vc/cpu) : "— | —"
      printf "| %s | %s | %.2f | %.1f | %.2f | %.0f | %.2f× | %.2f× | %s | %.2f× |\n", c, t, s, n/s, cpu, rss/1024, pw/s, pc/cpu, v, cw/s}'; }
  table+=$'\n'$(row "journal-media convert --jobs 2" "$jw" "$jc" "$jr")
  [ -n "${BEFORE_BENCH:-}" ] && table+=$'\n'$(row "before (BEFORE_BENCH), 2 jobs" "${wall[before]}" "${cpu[before]}" "${rss[before]}")
  table+=$'\n'$(row "Pillow, 2 processes" "$pw" "$pc" "$pr")
  if [ "$class" = heic ]; then
    system_minor=$("$PY_DEB" -c "import pyvips; print(pyvips.version(1))")
    vlabel="pyvips (Debian's libvips 8.$system_minor + libheif/libde265; the 8.$pyvips_minor wheel has no HEVC decoder), 1 thread, 2 processes"
  else
    vlabel="pyvips (libvips 8.$pyvips_minor, 1 thread), 2 processes"
  fi
  [ "$vw" = 0 ] || table+=$'\n'$(row "$vlabel" "$vw" "$vc" "$vr")
  table+=$'\n'$(row "C loop (vips_thumbnail ×2), 2 threads" "$cw" "$cc" "$cr")
  if [ "$class" = heic ] && [ -x "$heic_bench" ]; then
    hevc=$("$heic_bench" floor "${files[@]}" | awk '$1 == "total" {print $2}')
    floors+=$'\n'$(awk -v c="$class" -v f="$hevc" -v cpu="$jc" -v n="$n" \
      'BEGIN{printf "| %s | %.1f | %.1f | %.2f× |", c, f/n, cpu*1000/n, cpu*1000/f}')
  fi
  read -r _ floor fd frs fen < <("$bench/limit" "${files[@]}" 2>/dev/null | tail -1)
  limits+=$'\n'$(awk -v c="$class" -v f="$floor" -v d="$fd" -v r="$frs" -v e="$fen" -v cpu="$jc" -v n="$n" \
    'BEGIN{printf "| %s | %.1f (%.1f + %.1f + %.1f) | %.1f | %.2f× |", c, f, d, r, e, cpu*1000/n, cpu*1000/n/f}')
done
# The camera class's fallback JPEGs against a careful reference (Benchmarks/quality.py).
quality="(camera class not run)"
if wants camera; then
  rm -rf "$bench/real-q-jm" "$bench/real-q-pil"; mkdir -p "$bench/real-q-pil"
  if [ -n "${CONVERT_BENCH:-}" ]; then "$CONVERT_BENCH" "$real/camera" "$bench/real-q-jm" 2 >/dev/null || [ $? -eq 1 ]
  else "$bin" convert "$real/camera" --output "$bench/real-q-jm" --quiet --force || [ $? -eq 1 ]; fi
  "$PY" Benchmarks/pillow_peer.py "$bench/real-q-pil" 2 "$real"/camera/* >/dev/null
  quality=$("$PY" Benchmarks/quality.py "$real/camera" "$bench/real-q-jm" "$bench/real-q-pil")
fi
echo "$table"
echo
echo "1-minute load average before–after each class: $loads$rr_note"
echo
echo "Camera class, fallback JPEGs against a reference (full decode, ICC → sRGB, LANCZOS; Benchmarks/quality.py):"
echo "$quality"
echo
echo "Per-asset CPU floor (Benchmarks/limit.c, one thread, median of 3) against journal-media's CPU per asset at --jobs 2:"
echo "$limits"
echo
echo "HEIC: the HEVC-decode floor against journal-media's CPU per asset at --jobs 2 (start-up included):"
echo "$floors"
if [ -n "${OUTPUT:-}" ]; then
  { echo "$table"; echo
    echo "Each round ran every tool once in turn; 1-minute load average before–after each class: $loads$rr_note."
    echo
    echo "Per-asset CPU floor (\`Benchmarks/limit.c\`: decode at the best DCT scale + two bilinear resizes"
    echo "+ JPEG q85 / PNG and WebP q80 effort 2 encodes, one thread, median of 3) against journal-media's"
    echo "CPU per asset at --jobs 2 (start-up included):"
    echo; echo "$limits"; echo
    echo "HEIC: the HEVC-decode floor (\`heic-bench floor\`) against journal-media's CPU per asset:"
    echo; echo "$floors"; echo
    echo "Camera class, fallback JPEGs against a reference (\`Benchmarks/quality.py\`), mean PSNR per group:"
    echo; echo "$quality"; } > "$OUTPUT"
fi

#!/usr/bin/env bash
# Samples/png/decode/ (issue 29, PNGDirectDecode): small PNGs of every colour type, bit depth,
# filter type and interlace that the own PNG decode takes, made by netpbm's pnmtopng (libpng),
# and a 16-bit one it declines. Each is 37×29 (odd sizes: partial bytes at 1, 2 and 4 bits,
# Adam7 passes of uneven width) unless named otherwise. Committed; this script documents how
# they were made and is not run by the build. Needs: netpbm python3.
#   grey{1,2,4,8}.png          grey of 1, 2, 4, 8 bits (pnmtopng picks the depth from maxval)
#   grey{1,8}-trns.png         the same with a tRNS grey value (→ grey + alpha)
#   grey-alpha.png             8-bit grey + alpha
#   grey16.png                 16-bit grey (declined by the own decode)
#   rgb8-{none,sub,up,avg,paeth}.png   8-bit RGB, each row with the one filter type
#   rgb8-trns.png              8-bit RGB with a tRNS colour
#   rgba8-{sub,avg,paeth}.png  8-bit RGBA, varied alpha, one filter type each
#   rgba8-idats.png            RGBA written in 256-byte IDAT chunks (pnmtopng -comp_buffer_size)
#   palette{1,2,4,8}.png       palettes of 2, 4, 16 and 200 colours (1, 2, 4, 8 bits)
#   palette4-trns.png          a 16-colour palette with one transparent entry (tRNS)
#   palette8-alpha.png         a palette whose tRNS holds several alpha levels
#   interlaced-{rgb8,rgba8,palette2,grey1,grey-alpha}.png   Adam7
#   interlaced-{1x1,3x5,7x2}.png   8-bit RGB, Adam7 at sizes with empty passes (-force: no palette)
#   phys-metre.png, phys-unknown.png   pHYs in pixels per metre and with no unit
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples}/png/decode
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
# The pictures: PGM/PPM of a given maxval and colour count, and alpha planes.
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
def pgm(name, w, h, maxval, f):
    data = [f(x, y) for y in range(h) for x in range(w)]
    wide = maxval > 255
    raw = b"".join(v.to_bytes(2, "big") for v in data) if wide else bytes(data)
    open(f"{work}/{name}", "wb").write(b"P5\n%d %d\n%d\n" % (w, h, maxval) + raw)
def ppm(name, w, h, f):
    raw = bytes(c for y in range(h) for x in range(w) for c in f(x, y))
    open(f"{work}/{name}", "wb").write(b"P6\n%d %d\n255\n" % (w, h) + raw)
W, H = 37, 29
for bits in (1, 2, 4, 8):
    m = (1 << bits) - 1
    pgm(f"grey{bits}.pgm", W, H, m, lambda x, y, m=m: (x * 7 + y * 3 + (x * y) % 5) % (m + 1))
pgm("grey16.pgm", W, H, 65535, lambda x, y: (x * 1771 + y * 2203) % 65536)
ppm("rgb.ppm", W, H, lambda x, y: ((x * 7 + y * 2) % 256, (y * 9 + x) % 256, (x * y * 3 + 17) % 256))
def palette_of(n):
    colours = [((i * 67) % 256, (i * 151 + 30) % 256, (i * 29 + 90) % 256) for i in range(n)]
    return lambda x, y: colours[(x * 3 + y * 5 + (x // 4) * (y // 3)) % n]
for n in (2, 4, 16, 200):
    ppm(f"palette{n}.ppm", W, H, palette_of(n))
pgm("alpha.pgm", W, H, 255, lambda x, y: 0 if x < 9 else 255 if x > 27 else (x * 13 + y * 7) % 256)
pgm("alpha-levels.pgm", W, H, 255, lambda x, y: (0, 64, 255, 255)[(x + y) % 4])
for w, h in ((1, 1), (3, 5), (7, 2)):
    ppm(f"rgb-{w}x{h}.ppm", w, h, lambda x, y: (x * 40 + 10, y * 50 + 5, (x + y) * 30))
PY
p() { pnmtopng "$@"; }
for bits in 1 2 4 8; do p "$work/grey$bits.pgm" > "$out/grey$bits.png"; done
p -transparent=rgb:01/01/01 "$work/grey1.pgm" > "$out/grey1-trns.png"
p -transparent=rgb:07/07/07 "$work/grey8.pgm" > "$out/grey8-trns.png"
p -alpha="$work/alpha.pgm" "$work/grey8.pgm" > "$out/grey-alpha.png"
p "$work/grey16.pgm" > "$out/grey16.png"
for filter in none sub up avg paeth; do
  flag=-$filter; [ "$filter" = none ] && flag=-nofilter
  p "$flag" "$work/rgb.ppm" > "$out/rgb8-$filter.png"
done
p -transparent=rgb:07/09/11 "$work/rgb.ppm" > "$out/rgb8-trns.png"
for filter in sub avg paeth; do p "-$filter" -alpha="$work/alpha.pgm" "$work/rgb.ppm" > "$out/rgba8-$filter.png"; done
p -comp_buffer_size=256 -alpha="$work/alpha.pgm" "$work/rgb.ppm" > "$out/rgba8-idats.png"
p "$work/palette2.ppm" > "$out/palette1.png"
p "$work/palette4.ppm" > "$out/palette2.png"
p "$work/palette16.ppm" > "$out/palette4.png"
p "$work/palette200.ppm" > "$out/palette8.png"
first=$(python3 -c "print('rgb:%02x/%02x/%02x' % (0, 30, 90))")
p -transparent="$first" "$work/palette16.ppm" > "$out/palette4-trns.png"
p -alpha="$work/alpha-levels.pgm" "$work/palette16.ppm" > "$out/palette8-alpha.png"
p -interlace "$work/rgb.ppm" > "$out/interlaced-rgb8.png"
p -interlace -alpha="$work/alpha.pgm" "$work/rgb.ppm" > "$out/interlaced-rgba8.png"
p -interlace "$work/palette4.ppm" > "$out/interlaced-palette2.png"
p -interlace "$work/grey1.pgm" > "$out/interlaced-grey1.png"
p -interlace -alpha="$work/alpha.pgm" "$work/grey8.pgm" > "$out/interlaced-grey-alpha.png"
for size in 1x1 3x5 7x2; do p -force -interlace "$work/rgb-$size.ppm" > "$out/interlaced-$size.png"; done
p -size="2835 3780 1" "$work/rgb.ppm" > "$out/phys-metre.png"
p -size="3 4 0" "$work/rgb.ppm" > "$out/phys-unknown.png"

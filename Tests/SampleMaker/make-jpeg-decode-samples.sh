#!/bin/sh
# Samples/jpeg-decode/: JPEG layouts the direct libjpeg decode (DirectJPEGDecode) must decode
# exactly as libvips' jpegload does, re-encoded by libvips 8.14 (libjpeg-turbo 2.1) from
# Samples/orientation-8-srgb.jpg (400×600, itself made by make-samples.sh) and Samples/cmyk.jpg;
# the chroma layouts libvips does not write by cjpeg, YCCK by a few lines of C against libjpeg.
# Needs: libvips-tools libjpeg-turbo-progs (cjpeg, djpeg) libjpeg62-turbo-dev gcc
# libimage-exiftool-perl python3. Check a layout with: djpeg -verbose -outfile /dev/null FILE
set -eu
out=${1:-Samples/jpeg-decode}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
src=Samples/orientation-8-srgb.jpg
# Progressive (multi-scan), 4:2:0.
vips jpegsave "$src" "$out/progressive.jpg" --Q 80 --interlace --strip
# One grey channel.
vips colourspace "$src" "$work/grey.v" b-w
vips jpegsave "$work/grey.v" "$out/grey.jpg" --Q 80 --strip
# Restart markers every 3 MCUs (undamaged).
vips jpegsave "$src" "$out/restart-interval.jpg" --Q 80 --restart-interval 3 --strip
# Odd sides (397×301), not multiples of any DCT scale or MCU, 4:2:0.
vips crop "$src" "$work/odd.v" 1 3 397 301
vips jpegsave "$work/odd.v" "$out/odd-size.jpg" --Q 80 --strip
# CMYK without the Adobe APP14 marker or the profile (cmyk.jpg with those segments cut out):
# libvips 8.14 still inverts its samples.
python3 - Samples/cmyk.jpg "$out/cmyk-no-adobe.jpg" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
at, out = 2, bytearray(data[:2])
while data[at] == 0xFF and data[at + 1] not in (0xDA, 0xD9):
    length = int.from_bytes(data[at + 2:at + 4], 'big')
    if data[at + 1] not in (0xEE, 0xE2):
        out += data[at:at + 2 + length]
    at += 2 + length
out += data[at:]
open(sys.argv[2], 'wb').write(out)
PY
# 3×8000 grey gradient with a grey ICC profile (D50, gamma 2.2, made by lcms here): the
# libvips shrink-on-load path (tagged grey), where a DCT scale counted by ⌈side / n⌉ (n = 4
# for a 1600 px box) made libvips load a 0-pixel-wide image and abort the process.
python3 - "$work/grey.icc" <<'PY'
import ctypes, sys
lcms = ctypes.CDLL("liblcms2.so.2")
lcms.cmsBuildGamma.restype = ctypes.c_void_p
lcms.cmsBuildGamma.argtypes = [ctypes.c_void_p, ctypes.c_double]
lcms.cmsD50_xyY.restype = ctypes.c_void_p
lcms.cmsCreateGrayProfile.restype = ctypes.c_void_p
lcms.cmsCreateGrayProfile.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
lcms.cmsSaveProfileToFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
profile = lcms.cmsCreateGrayProfile(lcms.cmsD50_xyY(), lcms.cmsBuildGamma(None, 2.2))
assert profile and lcms.cmsSaveProfileToFile(profile, sys.argv[1].encode())
# lcms stamps the header with the time of saving and has no call to set it, so the creation
# date (bytes 24-35, six big-endian 16-bit numbers) is overwritten with the committed sample's,
# and the sample comes out byte for byte the same on every run. lcms leaves the profile ID
# (bytes 84-99) zero; were it set, it would be recomputed (MD5 of the profile with the flags,
# rendering intent and ID fields zeroed), since it covers the date.
import hashlib, struct
icc = bytearray(open(sys.argv[1], 'rb').read())
icc[24:36] = struct.pack('>6H', 2026, 11, 27, 3, 10, 24)
if any(icc[84:100]):
    blank = bytearray(icc)
    blank[44:48] = blank[64:68] = bytes(4)
    blank[84:100] = bytes(16)
    icc[84:100] = hashlib.md5(blank).digest()
open(sys.argv[1], 'wb').write(icc)
PY
vips xyz "$work/xy.v" 3 8000
vips extract_band "$work/xy.v" "$work/y.v" 1
vips linear "$work/y.v" "$work/thin.v" 0.03 10 --uchar
vips jpegsave "$work/thin.v" "$out/thin-grey-profile.jpg" --Q 80 --profile "$work/grey.icc"
# Grey with an RGB profile (libvips' sRGB one), 200×150: libvips 8.14 has no grey fallback, so
# its icc_transform fails; the profile is ignored, as viewers do.
vips crop "$work/grey.v" "$work/grey-crop.v" 100 200 200 150
vips jpegsave "$work/grey-crop.v" "$out/grey-rgb-profile.jpg" --Q 80 --profile srgb
# Chroma layouts other than 4:2:0 (cjpeg from libjpeg-turbo 2.1, Q80, from the source's stored
# pixels), tagged with the source's orientation 8 so their renditions show the scene upright:
# 4:2:2 (h2v1), 4:4:0 (h1v2) and 4:4:4 (no subsampling).
vips copy "$src" "$work/stored.ppm"
for layout in 422:2x1 440:1x2 444:1x1; do
  cjpeg -quality 80 -sample "${layout#*:}" -outfile "$out/subsample-${layout%%:*}.jpg" "$work/stored.ppm"
  exiftool -q -overwrite_original -Orientation#=8 "$out/subsample-${layout%%:*}.jpg"
done
# YCCK: an Adobe APP14 with transform 2 and four components, as Photoshop writes CMYK. cmyk.jpg's
# stored (Adobe-inverted) CMYK samples re-encoded by libjpeg with jpeg_set_colorspace(JCS_YCCK),
# Q80, Y and K at 2×2, Cb and Cr at 1×1; no profile (decoded through libvips' CMYK one, which
# made cmyk.jpg), upright (600×400).
cat > "$work/ycck.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
int main(int argc, char **argv) {
    if (argc != 3) return 2;
    FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
    if (!in || !out) return 1;
    struct jpeg_decompress_struct d;
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr de, ce;
    d.err = jpeg_std_error(&de);
    jpeg_create_decompress(&d);
    jpeg_stdio_src(&d, in);
    jpeg_read_header(&d, TRUE);
    if (d.jpeg_color_space != JCS_CMYK) return 1;
    d.out_color_space = JCS_CMYK;
    jpeg_start_decompress(&d);
    c.err = jpeg_std_error(&ce);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, out);
    c.image_width = d.output_width;
    c.image_height = d.output_height;
    c.input_components = 4;
    c.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&c);
    jpeg_set_colorspace(&c, JCS_YCCK);
    jpeg_set_quality(&c, 80, TRUE);
    c.comp_info[0].h_samp_factor = c.comp_info[0].v_samp_factor = 2;
    c.comp_info[3].h_samp_factor = c.comp_info[3].v_samp_factor = 2;
    jpeg_start_compress(&c, TRUE);
    JSAMPROW row = malloc((size_t) d.output_width * 4);
    while (d.output_scanline < d.output_height) {
        jpeg_read_scanlines(&d, &row, 1);
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_finish_decompress(&d);
    return fclose(out) != 0;
}
C
gcc -O2 -o "$work/ycck" "$work/ycck.c" -ljpeg
"$work/ycck" Samples/cmyk.jpg "$out/ycck.jpg"

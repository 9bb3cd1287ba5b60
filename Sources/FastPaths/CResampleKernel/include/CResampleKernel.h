// The inner loops of JournalMediaImaging's Lanczos resampler (`SeparableResampler`) in
// 16-bit fixed point: weights scaled by 2^14 (each position's weights sum to exactly 16384),
// an intermediate row with 6 fractional bits. On x86-64 the multiply-adds are SSE2 `pmaddwd`
// (two 16-bit products summed into 32 bits per lane), or their AVX2 forms when the CPU has
// AVX2 (chosen at run time); elsewhere the same arithmetic in plain C, bit for bit. Swift code calls these with buffers it owns; nothing is allocated.
#ifndef JOURNALMEDIA_CRESAMPLEKERNEL_H
#define JOURNALMEDIA_CRESAMPLEKERNEL_H
#include <stddef.h>
#include <stdint.h>

/// The weights' scale: 1.0 is 1 << JM_WEIGHT_BITS.
#define JM_WEIGHT_BITS 14
/// Fractional bits kept in the intermediate row between the two passes.
#define JM_INTERMEDIATE_BITS 6

/// One output row of the vertical pass: out[i] = Σk weights[k] · rows[first + k][i], for
/// i < rowLength, rounded to JM_INTERMEDIATE_BITS fractional bits and saturated to int16.
/// `source` holds rows of `rowLength` bytes, each starting `stride` (≥ rowLength) bytes
/// after the previous one.
void jm_resample_vertical_row(const uint8_t *source, size_t rowLength, size_t stride, size_t first,
                              size_t count, const int16_t *weights, int16_t *out);

/// One output row of the horizontal pass over 4-lane pixels (`pixels`: 4 int16 per pixel,
/// readable up to pixel first[x] + count[x] + 3, which the AVX2 path reads four at a time):
/// for each output x, the sum over its taps, rounded, clamped to 0…255, of which the first
/// `bands` lanes are written to out[x · bands]. Weights: `stride` (a multiple of 4) per
/// output position, zero beyond count[x].
void jm_resample_horizontal_row(const int16_t *pixels, size_t outWidth, const int32_t *first,
                                const int32_t *count, const int16_t *weights, size_t stride,
                                size_t bands, uint8_t *out);

/// Fractional bits of the wide output (`jm_resample_horizontal_rows_wide`).
#define JM_WIDE_BITS 4

/// The horizontal pass of one-band planes, four output rows at once: the 4 lanes of
/// `pixels` are four rows' vertical sums (`jm_interleave_rows4`), resampled with the same taps
/// as `jm_resample_horizontal_row`, and lane c (< `rows`, 1–4) of output x written to
/// out[c · rowStride + x] as int16 keeping JM_WIDE_BITS fractional bits (rounded, saturated,
/// not clamped to 0…255: ringing past black and white is kept), for planes converted after
/// resampling (Y'CbCr → RGB), where 8-bit rounding before the matrix's gains costs precision.
void jm_resample_horizontal_rows_wide(const int16_t *pixels, size_t outWidth, const int32_t *first,
                                      const int32_t *count, const int16_t *weights, size_t stride,
                                      size_t rows, size_t rowStride, int16_t *out);

/// Four rows of `width` vertical sums interleaved as 4-lane pixels: lanes[4x + r] = row r [x].
void jm_interleave_rows4(const int16_t *row0, const int16_t *row1, const int16_t *row2, const int16_t *row3,
                         size_t width, int16_t *lanes);

/// A row of vertical sums with `bands` (1–3) interleaved channels spread to 4 lanes per pixel
/// for `jm_resample_horizontal_row`: lanes[4x + c] = sums[bands · x + c]; with 3 bands lane 3
/// is set to 0, with fewer the other lanes are left as they are. `sums` must be readable 8
/// bytes past its `width · bands` values (the AVX2 path loads 16 bytes per two pixels).
void jm_spread_lanes(const int16_t *sums, size_t width, size_t bands, int16_t *lanes);

/// Whether the AVX2 paths run: 0 turns them off (SSE2 or plain C from then on), 1 back on
/// when the CPU has AVX2, -1 only asks; returns the state before the call. Process-wide, for
/// tests and benchmarks that compare the paths (their output is the same bit for bit); the
/// environment variable JM_RESAMPLE_FORCE_SSE2 sets 0 at the first resize.
int jm_resample_avx2(int enable);

/// Fixed-point Y'CbCr → R'G'B' coefficients, each × 2^16: R = yGain·(Y − yOffset) + crToR·(Cr − 128),
/// G = yGain·(Y − yOffset) − cbToG·(Cb − 128) − crToG·(Cr − 128), B = yGain·(Y − yOffset) + cbToB·(Cb − 128).
typedef struct {
    int32_t yOffset, yGain, crToR, cbToG, crToG, cbToB;
} jm_ycbcr_coefficients;

/// `count` pixels of three co-sited planes of int16 samples with JM_WIDE_BITS fractional bits
/// (the 8-bit scale × 2^JM_WIDE_BITS; Cb and Cr may be NULL: neutral chroma) converted to
/// packed RGB24 in `rgb` (3 · count bytes), each channel rounded and clamped to 0…255.
/// Eight pixels per step with AVX2 when `jm_resample_avx2` has it on; the same bytes either way.
void jm_ycbcr_to_rgb_row(const int16_t *y, const int16_t *cb, const int16_t *cr, size_t count,
                         const jm_ycbcr_coefficients *coefficients, uint8_t *rgb);

/// High-bit-depth samples (9–16 significant bits, little-endian as libav's `…p10le`/`…p12le`
/// planes hold them) narrowed to 8 bits: out[i] = min(255, (in[i] + half) >> shift) with
/// half = 1 << (shift − 1), `shift` = bit depth − 8 (1–8). Rounds as libheif's and swscale's
/// 10-to-8-bit conversions do; the compiler vectorises the loop.
void jm_narrow_samples(const uint16_t *in, size_t count, unsigned shift, uint8_t *out);

/// Fractional bits of linear light in `jm_matrix_shaper`: 1.0 is JM_LINEAR_ONE.
#define JM_LINEAR_BITS 14
#define JM_LINEAR_ONE (1 << JM_LINEAR_BITS)

/// The tables of a matrix-shaper colour conversion (an RGB ICC profile made of three tone
/// curves and a 3×3 matrix, to another such profile), in LittleCMS's 8-bit fixed point:
/// `toLinear[c][v]`, channel c's 8-bit value v as linear light with JM_LINEAR_BITS
/// fractional bits (0 … JM_LINEAR_ONE); `matrix`, row-major, source linear RGB → target
/// linear RGB, each entry × JM_LINEAR_ONE (|entry| ≤ 2 × JM_LINEAR_ONE, so sums fit 32 bits);
/// `toEncoded[c]`, JM_LINEAR_ONE + 1 bytes: the target's 8-bit value of linear i / JM_LINEAR_ONE.
typedef struct {
    int32_t toLinear[3][256];
    int32_t matrix[9];
    const uint8_t *toEncoded[3];
} jm_matrix_shaper;

/// `width` × `height` pixels of packed RGB24 converted through `tables` into `target`, packed
/// row by row: output pixel (x, y) is the source's at byte offset start + x · across + y · down
/// (so one pass also turns or mirrors the picture). Each output channel is the linear sum
/// rounded, clamped to 0 … JM_LINEAR_ONE, then looked up. `target` must not overlap `source`.
void jm_matrix_shaper_convert(const jm_matrix_shaper *tables, const uint8_t *source, ptrdiff_t start,
                              ptrdiff_t across, ptrdiff_t down, size_t width, size_t height, uint8_t *target);

/// PNG's filter `type` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) undone on one row of `length`
/// bytes: `in` the filtered bytes (after the filter-type byte), `previous` the row above as
/// already unfiltered (the first row's is all zeros), `bpp` the bytes per whole pixel (1 for
/// bit depths below 8); the result into `out`, which must not overlap `in` or `previous`.
/// Returns 0, or -1 for a filter type PNG does not define (the file is not valid).
int jm_png_unfilter_row(int type, const uint8_t *in, const uint8_t *previous, uint8_t *out,
                        size_t length, size_t bpp);

/// The bitwise AND of the last band (alpha) of `count` pixels of `bands` bytes: 255 exactly
/// when every pixel is opaque.
uint8_t jm_alpha_and(const uint8_t *pixels, size_t count, size_t bands);

/// `count` pixels of `bands` bytes packed in place to `bands` − 1 bytes (the last band dropped).
void jm_drop_last_band(uint8_t *pixels, size_t count, size_t bands);

/// `pixels` pixels of `bands` (2 or 4) bytes, the last alpha, with colour multiplied by alpha
/// into `target`: (c · a + 127) / 255; alpha copied. `target` must not overlap `source`.
void jm_premultiply_alpha(const uint8_t *source, uint8_t *target, size_t pixels, size_t bands);

/// The inverse in place: colour = min(255, (c · 255 + a / 2) / a) for 0 < a < 255, 0 where
/// a is 0, unchanged where a is 255.
void jm_unpremultiply_alpha(uint8_t *pixels, size_t count, size_t bands);
#endif

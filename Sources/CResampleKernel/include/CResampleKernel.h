// The inner loops of JournalMediaImaging's Lanczos resampler (`SeparableResampler`) in
// 16-bit fixed point: weights scaled by 2^14 (each position's weights sum to exactly 16384),
// an intermediate row with 6 fractional bits. On x86-64 the multiply-adds are SSE2 `pmaddwd`
// (two 16-bit products summed into 32 bits per lane); elsewhere the same arithmetic in
// plain C, bit for bit. Swift code calls these with buffers it owns; nothing is allocated.
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
/// `source` holds rows of `rowLength` bytes, packed.
void jm_resample_vertical_row(const uint8_t *source, size_t rowLength, size_t first, size_t count,
                              const int16_t *weights, int16_t *out);

/// One output row of the horizontal pass over 4-lane pixels (`pixels`: 4 int16 per pixel,
/// readable up to first[x] + count[x] + 1 pixels): for each output x, the sum over its taps,
/// rounded, clamped to 0…255, of which the first `bands` lanes are written to out[x · bands].
/// Weights: `stride` (even) per output position, zero beyond count[x].
void jm_resample_horizontal_row(const int16_t *pixels, size_t outWidth, const int32_t *first,
                                const int32_t *count, const int16_t *weights, size_t stride,
                                size_t bands, uint8_t *out);
#endif

// Y'CbCr → packed RGB24 in 32-bit fixed point, one row at a time: see
// include/CResampleKernel.h. Eight pixels per step with AVX2 when the CPU has it (the same
// integer arithmetic, so the same bytes), plain C otherwise and for the last pixels.
#include "CResampleKernel.h"
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__)) && !defined(JM_RESAMPLE_SCALAR) \
    && !defined(JM_RESAMPLE_NO_AVX2)
#define JM_USE_AVX2 1
#include <immintrin.h>
#endif

#define SHIFT (16 + JM_WIDE_BITS)

static inline uint8_t clamp_channel(int32_t v) {
    v = (v + (1 << (SHIFT - 1))) >> SHIFT;
    return v > 255 ? 255 : (v < 0 ? 0 : (uint8_t)v);
}

#if defined(JM_USE_AVX2)
/// Pixels 0 … 8k − 1 of the row while at least two more follow (each step stores 32 bytes of
/// which 24 are its own; the next step or the scalar loop overwrites the rest). Returns how many.
__attribute__((target("avx2")))
static size_t convert_avx2(const int16_t *y, const int16_t *cb, const int16_t *cr, size_t count,
                           const jm_ycbcr_coefficients *c, uint8_t *rgb) {
    const __m256i yOffset = _mm256_set1_epi32(c->yOffset << JM_WIDE_BITS);
    const __m256i neutral = _mm256_set1_epi32(128 << JM_WIDE_BITS);
    const __m256i rounding = _mm256_set1_epi32(1 << (SHIFT - 1));
    const __m256i yGain = _mm256_set1_epi32(c->yGain), crToR = _mm256_set1_epi32(c->crToR);
    const __m256i cbToG = _mm256_set1_epi32(c->cbToG), crToG = _mm256_set1_epi32(c->crToG);
    const __m256i cbToB = _mm256_set1_epi32(c->cbToB);
    // Per 128-bit half after the packs: r0–3 g0–3 b0–3 0000 → r0 g0 b0 r1 g1 b1 … (12 bytes).
    const __m256i interleave = _mm256_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1,
                                                0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1);
    size_t i = 0;
    for (; i + 10 <= count; i += 8) {
        __m256i luma = _mm256_add_epi32(_mm256_mullo_epi32(
            _mm256_sub_epi32(_mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(y + i))), yOffset), yGain), rounding);
        __m256i u = _mm256_sub_epi32(_mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(cb + i))), neutral);
        __m256i v = _mm256_sub_epi32(_mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(cr + i))), neutral);
        __m256i r = _mm256_srai_epi32(_mm256_add_epi32(luma, _mm256_mullo_epi32(v, crToR)), SHIFT);
        __m256i g = _mm256_srai_epi32(_mm256_sub_epi32(_mm256_sub_epi32(luma, _mm256_mullo_epi32(u, cbToG)),
                                                       _mm256_mullo_epi32(v, crToG)), SHIFT);
        __m256i b = _mm256_srai_epi32(_mm256_add_epi32(luma, _mm256_mullo_epi32(u, cbToB)), SHIFT);
        __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(r, g), _mm256_packs_epi32(b, _mm256_setzero_si256()));
        __m256i pixels = _mm256_shuffle_epi8(bytes, interleave);
        _mm_storeu_si128((__m128i *)(rgb + 3 * i), _mm256_castsi256_si128(pixels));
        _mm_storeu_si128((__m128i *)(rgb + 3 * i + 12), _mm256_extracti128_si256(pixels, 1));
    }
    return i;
}

#endif

void jm_ycbcr_to_rgb_row(const int16_t *y, const int16_t *cb, const int16_t *cr, size_t count,
                         const jm_ycbcr_coefficients *coefficients, uint8_t *rgb) {
    const jm_ycbcr_coefficients c = *coefficients;
    const int32_t yOffset = c.yOffset << JM_WIDE_BITS, neutral = 128 << JM_WIDE_BITS;
    if (cb == NULL || cr == NULL) {
        for (size_t i = 0; i < count; i++) {
            uint8_t v = clamp_channel(c.yGain * ((int32_t)y[i] - yOffset));
            rgb[3 * i] = v;
            rgb[3 * i + 1] = v;
            rgb[3 * i + 2] = v;
        }
        return;
    }
    size_t i = 0;
#if defined(JM_USE_AVX2)
    if (jm_resample_avx2(-1) == 1) i = convert_avx2(y, cb, cr, count, &c, rgb);
#endif
    for (; i < count; i++) {
        int32_t luma = c.yGain * ((int32_t)y[i] - yOffset);
        int32_t u = (int32_t)cb[i] - neutral, v = (int32_t)cr[i] - neutral;
        rgb[3 * i] = clamp_channel(luma + c.crToR * v);
        rgb[3 * i + 1] = clamp_channel(luma - c.cbToG * u - c.crToG * v);
        rgb[3 * i + 2] = clamp_channel(luma + c.cbToB * u);
    }
}

// Fixed-point resampling kernels: see include/CResampleKernel.h for the arithmetic.
#include "CResampleKernel.h"
#include <string.h>
#if defined(__SSE2__) && !defined(JM_RESAMPLE_SCALAR)
#define JM_USE_SSE2 1
#include <emmintrin.h>
#endif

#define INTERMEDIATE_SHIFT (JM_WEIGHT_BITS - JM_INTERMEDIATE_BITS)
#define FINAL_SHIFT (JM_WEIGHT_BITS + JM_INTERMEDIATE_BITS)

static inline int16_t saturate16(int32_t v) {
    return v > 32767 ? 32767 : (v < -32768 ? -32768 : (int16_t)v);
}

/// Weights k and k+1 as one 32-bit lane, k in the low half: what pmaddwd pairs with (a, b).
static inline int32_t weight_pair(const int16_t *w) {
    int32_t pair;
    memcpy(&pair, w, 4);
    return pair;
}

static inline uint8_t clamp8(int32_t v) {
    return v > 255 ? 255 : (v < 0 ? 0 : (uint8_t)v);
}

static void vertical_scalar(const uint8_t *source, size_t rowLength, size_t first, size_t count,
                            const int16_t *weights, int16_t *out, size_t from) {
    for (size_t i = from; i < rowLength; i++) {
        int32_t acc = 1 << (INTERMEDIATE_SHIFT - 1);
        for (size_t k = 0; k < count; k++) {
            acc += (int32_t)weights[k] * source[(first + k) * rowLength + i];
        }
        out[i] = saturate16(acc >> INTERMEDIATE_SHIFT);
    }
}

void jm_resample_vertical_row(const uint8_t *source, size_t rowLength, size_t first, size_t count,
                              const int16_t *weights, int16_t *out) {
    size_t done = 0;
#if defined(JM_USE_SSE2)
    const __m128i zero = _mm_setzero_si128();
    const __m128i rounding = _mm_set1_epi32(1 << (INTERMEDIATE_SHIFT - 1));
    const uint8_t *rows = source + first * rowLength;
    // 16 bytes of the row at a time: two source rows interleaved as 16-bit pairs, each pair
    // multiplied by (w[k], w[k+1]) and summed by one pmaddwd.
    for (; done + 16 <= rowLength; done += 16) {
        __m128i acc0 = rounding, acc1 = rounding, acc2 = rounding, acc3 = rounding;
        size_t k = 0;
        for (; k + 2 <= count; k += 2) {
            __m128i a = _mm_loadu_si128((const __m128i *)(rows + k * rowLength + done));
            __m128i b = _mm_loadu_si128((const __m128i *)(rows + (k + 1) * rowLength + done));
            __m128i w = _mm_set1_epi32(weight_pair(weights + k));
            __m128i aLow = _mm_unpacklo_epi8(a, zero), aHigh = _mm_unpackhi_epi8(a, zero);
            __m128i bLow = _mm_unpacklo_epi8(b, zero), bHigh = _mm_unpackhi_epi8(b, zero);
            acc0 = _mm_add_epi32(acc0, _mm_madd_epi16(_mm_unpacklo_epi16(aLow, bLow), w));
            acc1 = _mm_add_epi32(acc1, _mm_madd_epi16(_mm_unpackhi_epi16(aLow, bLow), w));
            acc2 = _mm_add_epi32(acc2, _mm_madd_epi16(_mm_unpacklo_epi16(aHigh, bHigh), w));
            acc3 = _mm_add_epi32(acc3, _mm_madd_epi16(_mm_unpackhi_epi16(aHigh, bHigh), w));
        }
        if (k < count) {
            // An odd tap count: the last row paired with zeros.
            __m128i a = _mm_loadu_si128((const __m128i *)(rows + k * rowLength + done));
            __m128i w = _mm_set1_epi32((int32_t)(uint16_t)weights[k]);
            __m128i aLow = _mm_unpacklo_epi8(a, zero), aHigh = _mm_unpackhi_epi8(a, zero);
            acc0 = _mm_add_epi32(acc0, _mm_madd_epi16(_mm_unpacklo_epi16(aLow, zero), w));
            acc1 = _mm_add_epi32(acc1, _mm_madd_epi16(_mm_unpackhi_epi16(aLow, zero), w));
            acc2 = _mm_add_epi32(acc2, _mm_madd_epi16(_mm_unpacklo_epi16(aHigh, zero), w));
            acc3 = _mm_add_epi32(acc3, _mm_madd_epi16(_mm_unpackhi_epi16(aHigh, zero), w));
        }
        __m128i low = _mm_packs_epi32(_mm_srai_epi32(acc0, INTERMEDIATE_SHIFT), _mm_srai_epi32(acc1, INTERMEDIATE_SHIFT));
        __m128i high = _mm_packs_epi32(_mm_srai_epi32(acc2, INTERMEDIATE_SHIFT), _mm_srai_epi32(acc3, INTERMEDIATE_SHIFT));
        _mm_storeu_si128((__m128i *)(out + done), low);
        _mm_storeu_si128((__m128i *)(out + done + 8), high);
    }
#endif
    vertical_scalar(source, rowLength, first, count, weights, out, done);
}

void jm_resample_horizontal_row(const int16_t *pixels, size_t outWidth, const int32_t *first,
                                const int32_t *count, const int16_t *weights, size_t stride,
                                size_t bands, uint8_t *out) {
    for (size_t x = 0; x < outWidth; x++) {
        const int16_t *p = pixels + (size_t)first[x] * 4;
        const int16_t *w = weights + x * stride;
        size_t n = (size_t)count[x];
        uint8_t pixel[4];
#if defined(JM_USE_SSE2)
        // Two source pixels per step: their lanes interleaved (p0c0 p1c0 p0c1 p1c1 …) and one
        // pmaddwd with (w[k], w[k+1]) gives the four channel sums. An odd count reads one
        // pixel more with a zero weight (the caller pads the row).
        __m128i acc = _mm_set1_epi32(1 << (FINAL_SHIFT - 1));
        for (size_t k = 0; k < n; k += 2) {
            __m128i a = _mm_loadl_epi64((const __m128i *)(p + k * 4));
            __m128i b = _mm_loadl_epi64((const __m128i *)(p + k * 4 + 4));
            __m128i wk = _mm_set1_epi32(weight_pair(w + k));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_unpacklo_epi16(a, b), wk));
        }
        __m128i shifted = _mm_srai_epi32(acc, FINAL_SHIFT);
        __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(shifted, shifted), shifted);
        uint32_t packed = (uint32_t)_mm_cvtsi128_si32(bytes);
        if (bands == 4) {
            memcpy(out + x * 4, &packed, 4);
            continue;
        }
        pixel[0] = (uint8_t)packed;
        pixel[1] = (uint8_t)(packed >> 8);
        pixel[2] = (uint8_t)(packed >> 16);
#else
        for (size_t c = 0; c < 4; c++) {
            int32_t acc = 1 << (FINAL_SHIFT - 1);
            for (size_t k = 0; k < n; k++) acc += (int32_t)w[k] * p[k * 4 + c];
            pixel[c] = clamp8(acc >> FINAL_SHIFT);
        }
        if (bands == 4) {
            memcpy(out + x * 4, pixel, 4);
            continue;
        }
#endif
        // Explicit stores: a byte loop here becomes a call to memcpy per pixel.
        uint8_t *o = out + x * bands;
        switch (bands) {
        case 3: o[2] = pixel[2]; /* fall through */
        case 2: o[1] = pixel[1]; /* fall through */
        default: o[0] = pixel[0];
        }
    }
}

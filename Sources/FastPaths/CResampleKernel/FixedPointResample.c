// Fixed-point resampling kernels: see include/CResampleKernel.h for the arithmetic.
#include "CResampleKernel.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && !defined(JM_RESAMPLE_SCALAR)
#define JM_USE_SSE2 1
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__)) && !defined(JM_RESAMPLE_SCALAR) \
    && !defined(JM_RESAMPLE_NO_AVX2)
// AVX2 versions of both passes, compiled for that target alone (the rest of the file stays
// baseline x86-64) and chosen at run time when the CPU has AVX2: the same integer sums in
// a different order, so the output is bit for bit the SSE2 and plain-C output.
#define JM_USE_AVX2 1
#include <immintrin.h>
#endif

#define INTERMEDIATE_SHIFT (JM_WEIGHT_BITS - JM_INTERMEDIATE_BITS)
#define FINAL_SHIFT (JM_WEIGHT_BITS + JM_INTERMEDIATE_BITS)

#if defined(JM_USE_SSE2)
/// The first `rows` of four int32 sums (already shifted) as saturated int16, lane c to
/// o[c · rowStride] (explicit stores: a loop here becomes a memcpy call per pixel).
static inline void store_rows(__m128i shifted, size_t rows, size_t rowStride, int16_t *o) {
    __m128i words = _mm_packs_epi32(shifted, shifted);
    switch (rows) {
    case 4: o[3 * rowStride] = (int16_t)_mm_extract_epi16(words, 3); /* fall through */
    case 3: o[2 * rowStride] = (int16_t)_mm_extract_epi16(words, 2); /* fall through */
    case 2: o[rowStride] = (int16_t)_mm_extract_epi16(words, 1); /* fall through */
    default: o[0] = (int16_t)_mm_extract_epi16(words, 0);
    }
}
#endif

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

#if defined(JM_USE_AVX2)
/// Whether this CPU runs the AVX2 paths: asked once (cpuid), then a load per call. The
/// environment variable JM_RESAMPLE_FORCE_SSE2 (any value) keeps the SSE2 paths, so the two
/// can be compared in one build (as libjpeg-turbo's JSIMD_FORCESSE2 does).
static int avx2_state = -1;

static int cpu_has_avx2(void) {
    int value = __atomic_load_n(&avx2_state, __ATOMIC_RELAXED);
    if (value < 0) {
        __builtin_cpu_init();
        value = __builtin_cpu_supports("avx2") && getenv("JM_RESAMPLE_FORCE_SSE2") == NULL ? 1 : 0;
        __atomic_store_n(&avx2_state, value, __ATOMIC_RELAXED);
    }
    return value;
}

/// The vertical pass over 32 bytes of the row at a time; returns how many bytes it did
/// (a multiple of 32), the rest is left to the SSE2 and scalar loops.
__attribute__((target("avx2")))
static size_t vertical_avx2(const uint8_t *source, size_t rowLength, size_t stride, size_t first, size_t count,
                            const int16_t *weights, int16_t *out) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i rounding = _mm256_set1_epi32(1 << (INTERMEDIATE_SHIFT - 1));
    const uint8_t *rows = source + first * stride;
    size_t done = 0;
    for (; done + 32 <= rowLength; done += 32) {
        // unpack works within each 128-bit half: acc0 holds bytes 0–3 and 16–19, acc1 4–7
        // and 20–23, acc2 8–11 and 24–27, acc3 12–15 and 28–31.
        __m256i acc0 = rounding, acc1 = rounding, acc2 = rounding, acc3 = rounding;
        size_t k = 0;
        for (; k + 2 <= count; k += 2) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(rows + k * stride + done));
            __m256i b = _mm256_loadu_si256((const __m256i *)(rows + (k + 1) * stride + done));
            __m256i w = _mm256_set1_epi32(weight_pair(weights + k));
            __m256i aLow = _mm256_unpacklo_epi8(a, zero), aHigh = _mm256_unpackhi_epi8(a, zero);
            __m256i bLow = _mm256_unpacklo_epi8(b, zero), bHigh = _mm256_unpackhi_epi8(b, zero);
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(_mm256_unpacklo_epi16(aLow, bLow), w));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(_mm256_unpackhi_epi16(aLow, bLow), w));
            acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_unpacklo_epi16(aHigh, bHigh), w));
            acc3 = _mm256_add_epi32(acc3, _mm256_madd_epi16(_mm256_unpackhi_epi16(aHigh, bHigh), w));
        }
        if (k < count) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(rows + k * stride + done));
            __m256i w = _mm256_set1_epi32((int32_t)(uint16_t)weights[k]);
            __m256i aLow = _mm256_unpacklo_epi8(a, zero), aHigh = _mm256_unpackhi_epi8(a, zero);
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(_mm256_unpacklo_epi16(aLow, zero), w));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(_mm256_unpackhi_epi16(aLow, zero), w));
            acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_unpacklo_epi16(aHigh, zero), w));
            acc3 = _mm256_add_epi32(acc3, _mm256_madd_epi16(_mm256_unpackhi_epi16(aHigh, zero), w));
        }
        // packs also works per half: p01 = bytes 0–7 | 16–23, p23 = 8–15 | 24–31.
        __m256i p01 = _mm256_packs_epi32(_mm256_srai_epi32(acc0, INTERMEDIATE_SHIFT), _mm256_srai_epi32(acc1, INTERMEDIATE_SHIFT));
        __m256i p23 = _mm256_packs_epi32(_mm256_srai_epi32(acc2, INTERMEDIATE_SHIFT), _mm256_srai_epi32(acc3, INTERMEDIATE_SHIFT));
        _mm256_storeu_si256((__m256i *)(out + done), _mm256_permute2x128_si256(p01, p23, 0x20));
        _mm256_storeu_si256((__m256i *)(out + done + 16), _mm256_permute2x128_si256(p01, p23, 0x31));
    }
    return done;
}

/// The horizontal pass four taps at a time: pixels k, k+1 in the low half and k+2, k+3 in
/// the high half, each half's two pixels interleaved per channel by one byte shuffle and
/// multiplied by its weight pair with one vpmaddwd; the halves are added at the end.
__attribute__((target("avx2")))
static void horizontal_avx2(const int16_t *pixels, size_t outWidth, const int32_t *first,
                            const int32_t *count, const int16_t *weights, size_t stride,
                            size_t bands, uint8_t *out, int16_t *wide, size_t rowStride, int shift) {
    const __m256i interleave = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                                0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    const __m256i pairIndex = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m128i rounding = _mm_set1_epi32(1 << (shift - 1));
    const __m128i shiftCount = _mm_cvtsi32_si128(shift);
    for (size_t x = 0; x < outWidth; x++) {
        const int16_t *p = pixels + (size_t)first[x] * 4;
        const int16_t *w = weights + x * stride;
        size_t n = (size_t)count[x];
        __m256i acc = _mm256_setzero_si256();
        for (size_t k = 0; k < n; k += 4) {
            __m256i v = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(p + k * 4)), interleave);
            __m256i wk = _mm256_permutevar8x32_epi32(
                _mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(w + k))), pairIndex);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(v, wk));
        }
        __m128i sum = _mm_add_epi32(_mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1)),
                                    rounding);
        __m128i shifted = _mm_sra_epi32(sum, shiftCount);
        if (wide != NULL) {
            store_rows(shifted, bands, rowStride, wide + x);
            continue;
        }
        __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(shifted, shifted), shifted);
        uint32_t packed = (uint32_t)_mm_cvtsi128_si32(bytes);
        if (bands == 4) {
            memcpy(out + x * 4, &packed, 4);
            continue;
        }
        uint8_t *o = out + x * bands;
        switch (bands) {
        case 3: o[2] = (uint8_t)(packed >> 16); /* fall through */
        case 2: o[1] = (uint8_t)(packed >> 8); /* fall through */
        default: o[0] = (uint8_t)packed;
        }
    }
}

/// jm_spread_lanes for 3 bands, two pixels per byte shuffle (reads 4 bytes past the pair).
__attribute__((target("avx2")))
static size_t spread3_avx2(const int16_t *sums, size_t width, int16_t *lanes) {
    const __m128i mask = _mm_setr_epi8(0, 1, 2, 3, 4, 5, -128, -128, 6, 7, 8, 9, 10, 11, -128, -128);
    size_t x = 0;
    for (; x + 2 <= width; x += 2) {
        __m128i v = _mm_loadu_si128((const __m128i *)(sums + 3 * x));
        _mm_storeu_si128((__m128i *)(lanes + 4 * x), _mm_shuffle_epi8(v, mask));
    }
    return x;
}
#endif

static void vertical_scalar(const uint8_t *source, size_t rowLength, size_t stride, size_t first, size_t count,
                            const int16_t *weights, int16_t *out, size_t from) {
    for (size_t i = from; i < rowLength; i++) {
        int32_t acc = 1 << (INTERMEDIATE_SHIFT - 1);
        for (size_t k = 0; k < count; k++) {
            acc += (int32_t)weights[k] * source[(first + k) * stride + i];
        }
        out[i] = saturate16(acc >> INTERMEDIATE_SHIFT);
    }
}

void jm_resample_vertical_row(const uint8_t *source, size_t rowLength, size_t stride, size_t first, size_t count,
                              const int16_t *weights, int16_t *out) {
    size_t done = 0;
#if defined(JM_USE_AVX2)
    if (cpu_has_avx2()) done = vertical_avx2(source, rowLength, stride, first, count, weights, out);
#endif
#if defined(JM_USE_SSE2)
    const __m128i zero = _mm_setzero_si128();
    const __m128i rounding = _mm_set1_epi32(1 << (INTERMEDIATE_SHIFT - 1));
    const uint8_t *rows = source + first * stride;
    // 16 bytes of the row at a time: two source rows interleaved as 16-bit pairs, each pair
    // multiplied by (w[k], w[k+1]) and summed by one pmaddwd.
    for (; done + 16 <= rowLength; done += 16) {
        __m128i acc0 = rounding, acc1 = rounding, acc2 = rounding, acc3 = rounding;
        size_t k = 0;
        for (; k + 2 <= count; k += 2) {
            __m128i a = _mm_loadu_si128((const __m128i *)(rows + k * stride + done));
            __m128i b = _mm_loadu_si128((const __m128i *)(rows + (k + 1) * stride + done));
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
            __m128i a = _mm_loadu_si128((const __m128i *)(rows + k * stride + done));
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
    vertical_scalar(source, rowLength, stride, first, count, weights, out, done);
}

/// The horizontal pass, to `bands` interleaved bytes (`wide` NULL), or to int16 with
/// FINAL_SHIFT − `shift` fractional bits with lane c of output x at wide[c · rowStride + x]
/// (`bands` lanes).
static void horizontal_row(const int16_t *pixels, size_t outWidth, const int32_t *first,
                           const int32_t *count, const int16_t *weights, size_t stride,
                           size_t bands, uint8_t *out, int16_t *wide, size_t rowStride, int shift) {
#if defined(JM_USE_AVX2)
    if (cpu_has_avx2()) {
        horizontal_avx2(pixels, outWidth, first, count, weights, stride, bands, out, wide, rowStride, shift);
        return;
    }
#endif
    for (size_t x = 0; x < outWidth; x++) {
        const int16_t *p = pixels + (size_t)first[x] * 4;
        const int16_t *w = weights + x * stride;
        size_t n = (size_t)count[x];
        uint8_t pixel[4];
#if defined(JM_USE_SSE2)
        // Two source pixels per step: their lanes interleaved (p0c0 p1c0 p0c1 p1c1 …) and one
        // pmaddwd with (w[k], w[k+1]) gives the four channel sums. An odd count reads one
        // pixel more with a zero weight (the caller pads the row).
        __m128i acc = _mm_set1_epi32(1 << (shift - 1));
        for (size_t k = 0; k < n; k += 2) {
            __m128i a = _mm_loadl_epi64((const __m128i *)(p + k * 4));
            __m128i b = _mm_loadl_epi64((const __m128i *)(p + k * 4 + 4));
            __m128i wk = _mm_set1_epi32(weight_pair(w + k));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_unpacklo_epi16(a, b), wk));
        }
        __m128i shifted = _mm_sra_epi32(acc, _mm_cvtsi32_si128(shift));
        if (wide != NULL) {
            store_rows(shifted, bands, rowStride, wide + x);
            continue;
        }
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
            int32_t acc = 1 << (shift - 1);
            for (size_t k = 0; k < n; k++) acc += (int32_t)w[k] * p[k * 4 + c];
            if (wide != NULL) {
                if (c < bands) wide[c * rowStride + x] = saturate16(acc >> shift);
                continue;
            }
            pixel[c] = clamp8(acc >> shift);
        }
        if (wide != NULL) continue;
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

void jm_resample_horizontal_row(const int16_t *pixels, size_t outWidth, const int32_t *first,
                                const int32_t *count, const int16_t *weights, size_t stride,
                                size_t bands, uint8_t *out) {
    horizontal_row(pixels, outWidth, first, count, weights, stride, bands, out, NULL, 0, FINAL_SHIFT);
}

void jm_resample_horizontal_rows_wide(const int16_t *pixels, size_t outWidth, const int32_t *first,
                                      const int32_t *count, const int16_t *weights, size_t stride,
                                      size_t rows, size_t rowStride, int16_t *out) {
    horizontal_row(pixels, outWidth, first, count, weights, stride, rows, NULL, out, rowStride,
                   FINAL_SHIFT - JM_WIDE_BITS);
}

void jm_interleave_rows4(const int16_t *row0, const int16_t *row1, const int16_t *row2, const int16_t *row3,
                         size_t width, int16_t *lanes) {
    size_t x = 0;
#if defined(JM_USE_SSE2)
    // A 4 × 8 transpose per step: pairs of rows interleaved by 16 bits, then the pairs by 32.
    for (; x + 8 <= width; x += 8) {
        __m128i a = _mm_loadu_si128((const __m128i *)(row0 + x)), b = _mm_loadu_si128((const __m128i *)(row1 + x));
        __m128i c = _mm_loadu_si128((const __m128i *)(row2 + x)), d = _mm_loadu_si128((const __m128i *)(row3 + x));
        __m128i abLow = _mm_unpacklo_epi16(a, b), abHigh = _mm_unpackhi_epi16(a, b);
        __m128i cdLow = _mm_unpacklo_epi16(c, d), cdHigh = _mm_unpackhi_epi16(c, d);
        _mm_storeu_si128((__m128i *)(lanes + 4 * x), _mm_unpacklo_epi32(abLow, cdLow));
        _mm_storeu_si128((__m128i *)(lanes + 4 * x + 8), _mm_unpackhi_epi32(abLow, cdLow));
        _mm_storeu_si128((__m128i *)(lanes + 4 * x + 16), _mm_unpacklo_epi32(abHigh, cdHigh));
        _mm_storeu_si128((__m128i *)(lanes + 4 * x + 24), _mm_unpackhi_epi32(abHigh, cdHigh));
    }
#endif
    for (; x < width; x++) {
        lanes[4 * x] = row0[x];
        lanes[4 * x + 1] = row1[x];
        lanes[4 * x + 2] = row2[x];
        lanes[4 * x + 3] = row3[x];
    }
}

void jm_spread_lanes(const int16_t *sums, size_t width, size_t bands, int16_t *lanes) {
    size_t x = 0;
    switch (bands) {
    case 3:
#if defined(JM_USE_AVX2)
        if (cpu_has_avx2()) x = spread3_avx2(sums, width, lanes);
#endif
        for (; x < width; x++) {
            lanes[4 * x] = sums[3 * x];
            lanes[4 * x + 1] = sums[3 * x + 1];
            lanes[4 * x + 2] = sums[3 * x + 2];
            lanes[4 * x + 3] = 0;
        }
        break;
    case 2:
        for (; x < width; x++) {
            lanes[4 * x] = sums[2 * x];
            lanes[4 * x + 1] = sums[2 * x + 1];
        }
        break;
    default:
        for (; x < width; x++) lanes[4 * x] = sums[x];
        break;
    }
}

int jm_resample_avx2(int enable) {
#if defined(JM_USE_AVX2)
    int before = cpu_has_avx2();
    if (enable == 0) {
        __atomic_store_n(&avx2_state, 0, __ATOMIC_RELAXED);
    } else if (enable > 0) {
        __builtin_cpu_init();
        __atomic_store_n(&avx2_state, __builtin_cpu_supports("avx2") ? 1 : 0, __ATOMIC_RELAXED);
    }
    return before;
#else
    (void)enable;
    return 0;
#endif
}

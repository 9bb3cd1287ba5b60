// PNG's row filters undone, and the alpha test of decoded rows: see include/CResampleKernel.h.
// Written from the PNG specification (ISO/IEC 15948, clause 9: filter types 0–4, the Paeth
// predictor's tie order a, b, c). Paeth, Average and Sub of 3- and 4-byte pixels go one pixel
// per step in SSE2's 16-bit lanes; the other widths, and other CPUs, byte by byte in plain C.
#include "CResampleKernel.h"
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

static inline uint8_t paeth_predictor(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

static void unfilter_scalar(int type, const uint8_t *restrict in, const uint8_t *restrict previous,
                            uint8_t *restrict out, size_t length, size_t bpp) {
    size_t lead = bpp < length ? bpp : length;
    switch (type) {
    case 1:
        memcpy(out, in, lead);
        for (size_t i = lead; i < length; i++) out[i] = (uint8_t)(in[i] + out[i - bpp]);
        break;
    case 3:
        for (size_t i = 0; i < lead; i++) out[i] = (uint8_t)(in[i] + (previous[i] >> 1));
        for (size_t i = lead; i < length; i++) out[i] = (uint8_t)(in[i] + ((out[i - bpp] + previous[i]) >> 1));
        break;
    case 4:
        for (size_t i = 0; i < lead; i++) out[i] = (uint8_t)(in[i] + previous[i]);
        for (size_t i = lead; i < length; i++)
            out[i] = (uint8_t)(in[i] + paeth_predictor(out[i - bpp], previous[i], previous[i - bpp]));
        break;
    }
}

#if defined(__x86_64__)
// One pixel of `bpp` (3 or 4) bytes as 16-bit lanes; a 3-byte pixel is read without touching
// the byte after it (the last pixel of a row ends the buffer).
static inline __m128i load_pixel(const uint8_t *p, size_t bpp) {
    uint32_t word = 0;
    memcpy(&word, p, bpp);
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)word), _mm_setzero_si128());
}

static inline void store_pixel(uint8_t *p, __m128i lanes, size_t bpp) {
    uint32_t word = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(lanes, lanes));
    memcpy(p, &word, bpp);
}

static inline __m128i absolute16(__m128i x) {
    return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x));
}

static void unfilter_pixels_sse2(int type, const uint8_t *restrict in, const uint8_t *restrict previous,
                                 uint8_t *restrict out, size_t length, size_t bpp) {
    const __m128i low = _mm_set1_epi16(0xFF);
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= length; i += bpp) {
        __m128i x = load_pixel(in + i, bpp);
        __m128i predicted;
        if (type == 1) {
            predicted = a;
        } else {
            __m128i b = load_pixel(previous + i, bpp);
            if (type == 3) {
                predicted = _mm_srli_epi16(_mm_add_epi16(a, b), 1);
            } else {
                __m128i pa = absolute16(_mm_sub_epi16(b, c));
                __m128i pb = absolute16(_mm_sub_epi16(a, c));
                __m128i pc = absolute16(_mm_sub_epi16(_mm_add_epi16(a, b), _mm_add_epi16(c, c)));
                __m128i smallest = _mm_min_epi16(_mm_min_epi16(pa, pb), pc);
                __m128i takeA = _mm_cmpeq_epi16(pa, smallest);
                __m128i takeB = _mm_andnot_si128(takeA, _mm_cmpeq_epi16(pb, smallest));
                __m128i takeC = _mm_andnot_si128(_mm_or_si128(takeA, takeB), _mm_set1_epi16(-1));
                predicted = _mm_or_si128(_mm_or_si128(_mm_and_si128(takeA, a), _mm_and_si128(takeB, b)),
                                         _mm_and_si128(takeC, c));
            }
            c = b;
        }
        a = _mm_and_si128(_mm_add_epi16(x, predicted), low);
        store_pixel(out + i, a, bpp);
    }
}
#endif

int jm_png_unfilter_row(int type, const uint8_t *in, const uint8_t *previous, uint8_t *out,
                        size_t length, size_t bpp) {
    if (bpp == 0) return -1;
    switch (type) {
    case 0:
        memcpy(out, in, length);
        return 0;
    case 2:
        for (size_t i = 0; i < length; i++) out[i] = (uint8_t)(in[i] + previous[i]);
        return 0;
    case 1: case 3: case 4:
#if defined(__x86_64__)
        if ((bpp == 3 || bpp == 4) && length % bpp == 0) {
            unfilter_pixels_sse2(type, in, previous, out, length, bpp);
            return 0;
        }
#endif
        unfilter_scalar(type, in, previous, out, length, bpp);
        return 0;
    default:
        return -1;
    }
}

uint8_t jm_alpha_and(const uint8_t *pixels, size_t count, size_t bands) {
    uint8_t all = 0xFF;
    const uint8_t *alpha = pixels + bands - 1;
    for (size_t i = 0; i < count; i++) all &= alpha[i * bands];
    return all;
}

void jm_drop_last_band(uint8_t *pixels, size_t count, size_t bands) {
    // In place: pixel i's colour moves from i · bands to i · (bands − 1), never ahead of
    // where it is read from.
    size_t kept = bands - 1;
    for (size_t i = 0; i < count; i++)
        for (size_t band = 0; band < kept; band++) pixels[i * kept + band] = pixels[i * bands + band];
}

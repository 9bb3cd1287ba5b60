// 8-bit colour premultiplied by alpha and back, for resizing images with transparency: see
// include/CResampleKernel.h. Plain C loops the compiler vectorises (division by 255 as a
// multiply; RGBA four pixels at a time with SSE2); the same rounding as the Swift it replaced,
// bit for bit.
#include "CResampleKernel.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#ifdef __SSE2__
// Four RGBA pixels at a time in 16-bit lanes: alpha spread over its pixel's lanes by two
// word shuffles, x·a + 128 divided by 255 as (t + (t >> 8)) >> 8 (equal to (x·a + 127) / 255
// for every x and a), alpha itself kept by a mask. Returns how many pixels it did.
static size_t premultiply_rgba_sse2(const uint8_t *restrict source, uint8_t *restrict target, size_t pixels) {
    const __m128i zero = _mm_setzero_si128(), bias = _mm_set1_epi16(128);
    const __m128i alpha_lanes = _mm_set_epi16(-1, 0, 0, 0, -1, 0, 0, 0);
    size_t i = 0;
    for (; i + 4 <= pixels; i += 4) {
        const __m128i in = _mm_loadu_si128((const __m128i *)(source + 4 * i));
        __m128i halves[2] = {_mm_unpacklo_epi8(in, zero), _mm_unpackhi_epi8(in, zero)};
        for (int h = 0; h < 2; h++) {
            const __m128i v = halves[h];
            const __m128i a = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xFF), 0xFF);
            __m128i t = _mm_add_epi16(_mm_mullo_epi16(v, a), bias);
            t = _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
            halves[h] = _mm_or_si128(_mm_and_si128(alpha_lanes, v), _mm_andnot_si128(alpha_lanes, t));
        }
        _mm_storeu_si128((__m128i *)(target + 4 * i), _mm_packus_epi16(halves[0], halves[1]));
    }
    return i;
}
#endif

void jm_premultiply_alpha(const uint8_t *restrict source, uint8_t *restrict target, size_t pixels, size_t bands) {
    if (bands == 4) {
        size_t i = 0;
#ifdef __SSE2__
        i = premultiply_rgba_sse2(source, target, pixels);
#endif
        for (; i < pixels; i++) {
            const uint8_t *s = source + 4 * i;
            uint8_t *t = target + 4 * i;
            unsigned a = s[3];
            t[0] = (uint8_t)((s[0] * a + 127) / 255);
            t[1] = (uint8_t)((s[1] * a + 127) / 255);
            t[2] = (uint8_t)((s[2] * a + 127) / 255);
            t[3] = (uint8_t)a;
        }
        return;
    }
    for (size_t i = 0; i < pixels; i++) {
        const uint8_t *s = source + bands * i;
        uint8_t *t = target + bands * i;
        unsigned a = s[bands - 1];
        for (size_t band = 0; band + 1 < bands; band++) t[band] = (uint8_t)((s[band] * a + 127) / 255);
        t[bands - 1] = (uint8_t)a;
    }
}

void jm_unpremultiply_alpha(uint8_t *pixels, size_t count, size_t bands) {
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = pixels + bands * i;
        unsigned a = p[bands - 1];
        if (a == 255) continue;
        for (size_t band = 0; band + 1 < bands; band++) {
            if (a == 0) {
                p[band] = 0;
            } else {
                unsigned value = (p[band] * 255u + a / 2) / a;
                p[band] = (uint8_t)(value > 255 ? 255 : value);
            }
        }
    }
}

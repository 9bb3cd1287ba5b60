// 8-bit colour premultiplied by alpha and back, for resizing images with transparency: see
// include/CResampleKernel.h. Plain C loops the compiler vectorises (division by 255 as a
// multiply); the same rounding as the Swift it replaced, bit for bit.
#include "CResampleKernel.h"

void jm_premultiply_alpha(const uint8_t *restrict source, uint8_t *restrict target, size_t pixels, size_t bands) {
    if (bands == 4) {
        for (size_t i = 0; i < pixels; i++) {
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

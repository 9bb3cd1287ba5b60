// The matrix-shaper colour conversion of packed RGB24, with the pixels read in any of the
// eight EXIF orientations: see include/CResampleKernel.h. Plain C; about 25 instructions a
// pixel (three table reads in, nine multiplies, three clamps, three table reads out).
#include "CResampleKernel.h"

static inline int32_t clamp_linear(int32_t v) {
    return v < 0 ? 0 : (v > JM_LINEAR_ONE ? JM_LINEAR_ONE : v);
}

void jm_matrix_shaper_convert(const jm_matrix_shaper *tables, const uint8_t *source, ptrdiff_t start,
                              ptrdiff_t across, ptrdiff_t down, size_t width, size_t height, uint8_t *target) {
    const int32_t *m = tables->matrix;
    const int32_t *inR = tables->toLinear[0], *inG = tables->toLinear[1], *inB = tables->toLinear[2];
    const uint8_t *outR = tables->toEncoded[0], *outG = tables->toEncoded[1], *outB = tables->toEncoded[2];
    const int32_t half = 1 << (JM_LINEAR_BITS - 1);
    for (size_t y = 0; y < height; y++) {
        const uint8_t *p = source + start + (ptrdiff_t)y * down;
        for (size_t x = 0; x < width; x++, p += across, target += 3) {
            const int32_t r = inR[p[0]], g = inG[p[1]], b = inB[p[2]];
            const int32_t lr = (m[0] * r + m[1] * g + m[2] * b + half) >> JM_LINEAR_BITS;
            const int32_t lg = (m[3] * r + m[4] * g + m[5] * b + half) >> JM_LINEAR_BITS;
            const int32_t lb = (m[6] * r + m[7] * g + m[8] * b + half) >> JM_LINEAR_BITS;
            target[0] = outR[clamp_linear(lr)];
            target[1] = outG[clamp_linear(lg)];
            target[2] = outB[clamp_linear(lb)];
        }
    }
}

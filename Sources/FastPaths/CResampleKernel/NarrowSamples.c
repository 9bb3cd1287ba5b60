// High-bit-depth plane rows narrowed to 8 bits: see include/CResampleKernel.h.
#include "CResampleKernel.h"

void jm_narrow_samples(const uint16_t *in, size_t count, unsigned shift, uint8_t *out) {
    if (shift == 0 || shift > 8) {
        for (size_t i = 0; i < count; i++) out[i] = in[i] > 255 ? 255 : (uint8_t)in[i];
        return;
    }
    const unsigned half = 1u << (shift - 1);
    for (size_t i = 0; i < count; i++) {
        unsigned value = ((unsigned)in[i] + half) >> shift;
        out[i] = value > 255 ? 255 : (uint8_t)value;
    }
}

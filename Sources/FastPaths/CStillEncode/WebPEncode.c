// Lossy WebP encode of 8-bit grey, grey+alpha, RGB or RGBA pixels through libwebp.
#include "CStillEncode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>

typedef struct {
    jm_still_encode_should_stop should_stop;
    void *context;
    int stopped;
} jm_webp_progress;

/// libwebp's progress hook: returning 0 aborts the encode (VP8_ENC_ERROR_USER_ABORT).
static int jm_webp_progress_hook(int percent, const WebPPicture *picture) {
    jm_webp_progress *progress = (jm_webp_progress *) picture->user_data;
    if (progress->should_stop && progress->should_stop(progress->context, percent)) {
        progress->stopped = 1;
        return 0;
    }
    return 1;
}

static const char *jm_webp_error_text(WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory for the bitstream";
    case VP8_ENC_ERROR_NULL_PARAMETER: return "null parameter";
    case VP8_ENC_ERROR_INVALID_CONFIGURATION: return "invalid configuration";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "bad dimensions";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW: return "partition 0 overflow";
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "partition overflow";
    case VP8_ENC_ERROR_BAD_WRITE: return "write error";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "file too big";
    case VP8_ENC_ERROR_USER_ABORT: return "aborted";
    default: return "unknown error";
    }
}

static void jm_put_le32(uint8_t *at, uint32_t value) {
    for (int i = 0; i < 4; i++) at[i] = (uint8_t) (value >> (8 * i));
}

static void jm_put_le24(uint8_t *at, uint32_t value) {
    for (int i = 0; i < 3; i++) at[i] = (uint8_t) (value >> (8 * i));
}

/// A simple-format file (RIFF, WEBP, one VP8 chunk) rewritten in the extended format: a VP8X
/// chunk with no feature flags and the canvas size, then the same bitstream chunk. This is
/// the layout the linked libvips' webpsave produces (its muxer adds the VP8X for an EXIF chunk that
/// the toolkit then removes), kept so renditions stay byte for byte what they were.
static int jm_webp_extended(const uint8_t *simple, size_t size, int width, int height, jm_still_encode_output *output) {
    const size_t vp8x = 18;
    uint8_t *data = malloc(size + vp8x);
    if (!data) return 0;
    memcpy(data, simple, 12);
    jm_put_le32(data + 4, (uint32_t) (size + vp8x - 8));
    memcpy(data + 12, "VP8X", 4);
    jm_put_le32(data + 16, 10);
    memset(data + 20, 0, 4);
    jm_put_le24(data + 24, (uint32_t) (width - 1));
    jm_put_le24(data + 27, (uint32_t) (height - 1));
    memcpy(data + 30, simple + 12, size - 12);
    output->data = data;
    output->size = size + vp8x;
    return 1;
}

jm_still_encode_status jm_webp_encode(const uint8_t *pixels, int width, int height, int bands, size_t stride,
                                      int quality, int method, jm_still_encode_should_stop should_stop,
                                      void *context, jm_still_encode_output *output) {
    output->data = NULL;
    output->size = 0;
    output->message[0] = 0;
    if (bands < 1 || bands > 4 || width < 1 || height < 1) {
        snprintf(output->message, sizeof output->message, "WebP encode of %d×%d×%d", width, height, bands);
        return JM_STILL_ENCODE_FAILED;
    }
    WebPConfig config;
    if (!WebPConfigInit(&config) || !WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, (float) quality)) {
        snprintf(output->message, sizeof output->message, "libwebp: config version error");
        return JM_STILL_ENCODE_FAILED;
    }
    config.lossless = 0;
    config.alpha_quality = 100;
    config.method = method;
    if (!WebPValidateConfig(&config)) {
        snprintf(output->message, sizeof output->message, "libwebp: invalid configuration");
        return JM_STILL_ENCODE_FAILED;
    }
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) {
        snprintf(output->message, sizeof output->message, "libwebp: picture version error");
        return JM_STILL_ENCODE_FAILED;
    }
    jm_webp_progress progress = { should_stop, context, 0 };
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.width = width;
    picture.height = height;
    picture.use_argb = 0;
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    picture.progress_hook = jm_webp_progress_hook;
    picture.user_data = &progress;

    // Grey is imported as RGB (or RGBA), the grey in all three channels, as libvips converts it.
    const uint8_t *rows = pixels;
    size_t rowBytes = stride;
    uint8_t *expanded = NULL;
    int importBands = bands;
    if (bands <= 2) {
        importBands = bands + 2;
        rowBytes = (size_t) width * (size_t) importBands;
        expanded = malloc(rowBytes * (size_t) height);
        if (!expanded) {
            snprintf(output->message, sizeof output->message, "WebP encode: out of memory");
            return JM_STILL_ENCODE_FAILED;
        }
        for (int y = 0; y < height; y++) {
            const uint8_t *in = pixels + (size_t) y * stride;
            uint8_t *out = expanded + (size_t) y * rowBytes;
            for (int x = 0; x < width; x++) {
                out[0] = out[1] = out[2] = in[0];
                if (bands == 2) out[3] = in[1];
                in += bands;
                out += importBands;
            }
        }
        rows = expanded;
    }
    int imported = importBands == 4 ? WebPPictureImportRGBA(&picture, rows, (int) rowBytes)
                                    : WebPPictureImportRGB(&picture, rows, (int) rowBytes);
    free(expanded);
    if (!imported) {
        WebPPictureFree(&picture);
        snprintf(output->message, sizeof output->message, "libwebp: picture memory error");
        return JM_STILL_ENCODE_FAILED;
    }
    int encoded = WebPEncode(&config, &picture);
    WebPEncodingError code = picture.error_code;
    WebPPictureFree(&picture);
    if (!encoded) {
        WebPMemoryWriterClear(&writer);
        if (progress.stopped) return JM_STILL_ENCODE_STOPPED;
        snprintf(output->message, sizeof output->message, "libwebp: unable to encode (%s)", jm_webp_error_text(code));
        return JM_STILL_ENCODE_FAILED;
    }
    int simple = writer.size > 16 && memcmp(writer.mem + 12, "VP8 ", 4) == 0;
    if (simple) {
        int ok = jm_webp_extended(writer.mem, writer.size, width, height, output);
        WebPMemoryWriterClear(&writer);
        if (!ok) {
            snprintf(output->message, sizeof output->message, "WebP encode: out of memory");
            return JM_STILL_ENCODE_FAILED;
        }
        return JM_STILL_ENCODE_OK;
    }
    // Already extended (alpha): copied, since libwebp's buffer is released through libwebp.
    output->data = malloc(writer.size);
    if (!output->data) {
        WebPMemoryWriterClear(&writer);
        snprintf(output->message, sizeof output->message, "WebP encode: out of memory");
        return JM_STILL_ENCODE_FAILED;
    }
    memcpy(output->data, writer.mem, writer.size);
    output->size = writer.size;
    WebPMemoryWriterClear(&writer);
    return JM_STILL_ENCODE_OK;
}

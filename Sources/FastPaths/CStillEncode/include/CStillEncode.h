// Direct still encodes of 8-bit pixels held in memory, on the calling thread: JPEG through
// libjpeg (jpeg_mem_dest) and lossy WebP through libwebp (WebPEncode), with the settings
// libvips 8.14's jpegsave / webpsave use for the same arguments (see DirectJPEGEncode.swift
// and DirectWebPEncode.swift). C because libjpeg reports errors through an error_exit that
// must not return (setjmp/longjmp, which Swift cannot call). Also the PNG fallback's Paeth
// filter and deflate (PNGDeflate.c, no library: see DirectPNGEncode.swift). Written here.
#ifndef JOURNALMEDIA_CSTILLENCODE_H
#define JOURNALMEDIA_CSTILLENCODE_H
#include <stddef.h>
#include <stdint.h>

/// Outcome of an encode.
typedef enum {
    JM_STILL_ENCODE_OK = 0,
    /// The encoder failed; `message` says why.
    JM_STILL_ENCODE_FAILED = 1,
    /// `should_stop` returned non-zero: the encode was abandoned part-way.
    JM_STILL_ENCODE_STOPPED = 2,
} jm_still_encode_status;

/// Asked between batches of rows (JPEG) or at libwebp's progress points (WebP) with how far
/// the encode has got (0–100); non-zero stops it.
typedef int (*jm_still_encode_should_stop)(void *context, int percent);

/// An encoded file: `data` (malloc'd, free with jm_still_encode_free) and its `size`, or the
/// failure's `message`.
typedef struct {
    uint8_t *data;
    size_t size;
    char message[200];
} jm_still_encode_output;

/// JPEG settings, libvips jpegsave's names.
typedef struct {
    int quality;           ///< 1–100, jpeg_set_quality with baseline tables forced
    int optimize_coding;   ///< optimised Huffman tables
    int progressive;       ///< jpeg_simple_progression
    int subsample;         ///< 3-band only: 4:2:0 when non-zero, else 4:4:4
} jm_jpeg_settings;

/// Encodes `height` rows of `width` pixels of `bands` (1: grey, 3: RGB) 8-bit samples, rows
/// `stride` bytes apart, as a JPEG without APP markers (no JFIF, EXIF, ICC).
jm_still_encode_status jm_jpeg_encode(const uint8_t *pixels, int width, int height, int bands, size_t stride,
                                      jm_jpeg_settings settings, jm_still_encode_should_stop should_stop,
                                      void *context, jm_still_encode_output *output);

/// Encodes `width`×`height` pixels of `bands` (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA) 8-bit
/// samples, rows `stride` bytes apart, as lossy WebP at `quality` (0–100) with `method`
/// (0–6): WebPConfigPreset(DEFAULT, quality), alpha quality 100, no sharp YUV; grey is
/// imported as RGB with the grey in all three channels. The file is written in the extended
/// format (a VP8X chunk ahead of the bitstream) as the linked libvips writes it.
jm_still_encode_status jm_webp_encode(const uint8_t *pixels, int width, int height, int bands, size_t stride,
                                      int quality, int method, jm_still_encode_should_stop should_stop,
                                      void *context, jm_still_encode_output *output);

/// PNG's Paeth filter (type 4) on `height` rows of `row_bytes` bytes, `bpp` bytes per pixel
/// (1–8), into `filtered`: `height` × (1 + `row_bytes`) bytes, each row led by its filter type.
/// Returns 0, or -1 when a row of zeros could not be allocated.
int jm_png_filter_paeth(const uint8_t *pixels, size_t row_bytes, size_t height, size_t bpp, uint8_t *filtered);

/// The most bytes `jm_deflate_runs` writes for `size` bytes of input.
size_t jm_deflate_runs_bound(size_t size);

/// Raw deflate (RFC 1951, no zlib header or checksum) of `size` bytes: literals, and runs of
/// four or more copies of the byte before (distance 1), in blocks of 65,535 input bytes, each
/// Huffman-coded with its own code or stored when that is smaller. Made for filtered
/// photographs, where long repeats are rare and a transparent background is runs of zeros.
/// Returns the bytes written, or -1 when `capacity` is below `jm_deflate_runs_bound(size)` or
/// memory ran out.
ptrdiff_t jm_deflate_runs(const uint8_t *data, size_t size, uint8_t *out, size_t capacity);

/// Frees an output's data (no-op on NULL).
void jm_still_encode_free(uint8_t *data);

#endif

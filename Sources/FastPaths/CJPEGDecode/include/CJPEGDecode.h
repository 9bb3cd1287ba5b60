// The JPEG decode of JournalMediaImaging's `DirectJPEGDecode`: libjpeg(-turbo) reading a
// JPEG held in memory on the calling thread, at a DCT scale of 1/1, 1/2, 1/4 or 1/8, with
// the settings libvips 8.14's `jpegload` uses (libjpeg's default output colour space, DCT
// method and upsampling; CMYK inverted, with or without an Adobe marker), so the samples are the same bytes.
//
// libjpeg reports errors through `error_exit`, which must not return: this file catches
// them with setjmp/longjmp, which Swift cannot call, and hands back a message instead.
// Warnings ("Corrupt JPEG data: …") are counted and, when asked, stop the decode at the
// first one. Written here; no allocation beyond libjpeg's own and the ICC profile.
#ifndef JOURNALMEDIA_CJPEGDECODE_H
#define JOURNALMEDIA_CJPEGDECODE_H
#include <stddef.h>

/// One decode in progress (opaque).
typedef struct jm_jpeg_decode jm_jpeg_decode;

/// What the decoded samples are.
typedef enum {
    JM_JPEG_GREY = 1,
    JM_JPEG_RGB = 3,
    JM_JPEG_CMYK = 4,
    /// Another colour space or component count (the caller leaves such a file to libvips).
    JM_JPEG_OTHER = 0
} jm_jpeg_colour;

/// Reads the header of the `length` bytes at `bytes` (borrowed: they must outlive the
/// decode) and starts the decompression at 1/`shrink` (1, 2, 4 or 8). With
/// `fail_on_warning` set, a libjpeg warning fails the decode where libvips' `fail_on=warning`
/// does (at the next 8-row strip); otherwise warnings are counted and decoding goes on, as
/// with libvips' `fail_on=truncated`. Input that ends early always fails ("Premature end of
/// input file"). Returns NULL only when memory runs out; otherwise check
/// `jm_jpeg_decode_failed`. Free with `jm_jpeg_decode_close`.
jm_jpeg_decode *jm_jpeg_decode_open(const void *bytes, size_t length, int shrink, int fail_on_warning);

/// Nonzero once the decode has failed; `jm_jpeg_decode_message` then says why.
int jm_jpeg_decode_failed(const jm_jpeg_decode *decode);

/// libjpeg's text for the failure (or the first warning), "" when there was none.
const char *jm_jpeg_decode_message(const jm_jpeg_decode *decode);

/// The output size, libvips' at this scale (the stored size / shrink rounded down, at
/// least 1), and colour space (valid once opened without failure).
int jm_jpeg_decode_width(const jm_jpeg_decode *decode);
int jm_jpeg_decode_height(const jm_jpeg_decode *decode);
jm_jpeg_colour jm_jpeg_decode_colour(const jm_jpeg_decode *decode);

/// The embedded ICC profile as libvips assembles it (APP2 "ICC_PROFILE" chunks in
/// sequence order, up to the first missing one), or NULL with *length 0 when there is
/// none. Owned by the decode.
const unsigned char *jm_jpeg_decode_profile(const jm_jpeg_decode *decode, size_t *length);

/// Decodes the next `rows` rows into `target`, each `stride` bytes after the previous
/// (at least width × components; nothing is written past width × components). Returns 0,
/// or -1 when the decode failed or `rows` goes past the last row (the rows are then
/// incomplete).
int jm_jpeg_decode_rows(jm_jpeg_decode *decode, unsigned char *target, size_t stride, int rows);

/// Releases libjpeg's state and the profile. Does not read the rest of the file (libvips
/// does not either: a file missing only its end marker decodes).
void jm_jpeg_decode_close(jm_jpeg_decode *decode);

#endif

// libjpeg decode of an in-memory JPEG on the calling thread; see CJPEGDecode.h.
#include "CJPEGDecode.h"

#include <stdlib.h>
#include <string.h>

#include <CJPEGErrors.h>
#include <jerror.h>

/// ICC profiles arrive in APP2 chunks numbered from 1; libvips keeps at most this many.
#define JM_ICC_CHUNKS 100
/// libvips' JPEG source hands libjpeg the file 4096 bytes at a time. libjpeg-turbo's Huffman
/// decoder takes a fast path (which passes over some damage without a warning) only when
/// enough bytes are buffered, so the same chunks give the same warnings.
#define JM_CHUNK 4096
/// "ICC_PROFILE\0" and the chunk's sequence number and count.
#define JM_ICC_OVERHEAD 14

struct jm_jpeg_decode {
    struct jpeg_decompress_struct info;
    /// Whether the decode failed (libjpeg's error or ours), the failure's or first warning's
    /// text, and the setjmp both entry points set.
    jm_jpeg_errors errors;
    struct jpeg_source_mgr source;
    const unsigned char *bytes;
    size_t length, given;
    int created;
    int fail_on_warning;
    int invert;
    /// libvips' size at this scale: the stored size divided by the shrink, rounded down
    /// (libjpeg rounds up; the extra column and row are dropped). Never 0.
    int width, height;
    /// Rows handed out so far, and a row of libjpeg's full width when it is wider.
    int row;
    unsigned char *scratch;
    unsigned char *profile;
    size_t profile_length;
};

static void jm_init_source(j_decompress_ptr info) { (void) info; }

/// The next chunk of the file (no copy: libjpeg reads the caller's bytes); being asked for
/// more after the last one means the file ended before the image did.
static boolean jm_fill_input_buffer(j_decompress_ptr info) {
    jm_jpeg_decode *decode = (jm_jpeg_decode *) info->client_data;
    if (decode->given >= decode->length) ERREXIT(info, JERR_INPUT_EOF);
    size_t count = decode->length - decode->given < JM_CHUNK ? decode->length - decode->given : JM_CHUNK;
    decode->source.next_input_byte = decode->bytes + decode->given;
    decode->source.bytes_in_buffer = count;
    decode->given += count;
    return TRUE;
}

/// Skips within the buffered chunk, then whole chunks, as a reading source would.
static void jm_skip_input_data(j_decompress_ptr info, long count) {
    if (count <= 0) return;
    struct jpeg_source_mgr *source = info->src;
    size_t left = (size_t) count;
    while (left > source->bytes_in_buffer) {
        left -= source->bytes_in_buffer;
        jm_fill_input_buffer(info);
    }
    source->next_input_byte += left;
    source->bytes_in_buffer -= left;
}

static void jm_term_source(j_decompress_ptr info) { (void) info; }

/// Joins the APP2 ICC chunks in sequence order up to the first missing one, as libvips'
/// reader does (a later chunk with the same number replaces an earlier one).
static void jm_collect_profile(jm_jpeg_decode *decode) {
    const JOCTET *chunks[JM_ICC_CHUNKS] = { 0 };
    size_t lengths[JM_ICC_CHUNKS] = { 0 };
    for (jpeg_saved_marker_ptr marker = decode->info.marker_list; marker; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 2 || marker->data_length <= JM_ICC_OVERHEAD) continue;
        if (memcmp(marker->data, "ICC_PROFILE", 11) != 0) continue;
        int index = (int) marker->data[12] - 1;
        if (index < 0 || index >= JM_ICC_CHUNKS) continue;
        chunks[index] = marker->data + JM_ICC_OVERHEAD;
        lengths[index] = marker->data_length - JM_ICC_OVERHEAD;
    }
    size_t total = 0;
    for (int i = 0; i < JM_ICC_CHUNKS && chunks[i]; i++) total += lengths[i];
    if (total == 0) return;
    unsigned char *profile = malloc(total);
    if (!profile) ERREXIT1(&decode->info, JERR_OUT_OF_MEMORY, 0);
    size_t at = 0;
    for (int i = 0; i < JM_ICC_CHUNKS && chunks[i]; i++) {
        memcpy(profile + at, chunks[i], lengths[i]);
        at += lengths[i];
    }
    decode->profile = profile;
    decode->profile_length = total;
}

jm_jpeg_decode *jm_jpeg_decode_open(const void *bytes, size_t length, int shrink, int fail_on_warning) {
    jm_jpeg_decode *decode = calloc(1, sizeof *decode);
    if (!decode) return NULL;
    decode->fail_on_warning = fail_on_warning;
    // The state lives on the heap, so it is current after a longjmp (see CJPEGErrors.h).
    decode->info.err = jm_jpeg_errors_use(&decode->errors);
    decode->info.client_data = decode;
    if (setjmp(decode->errors.escape)) return decode;
    jpeg_create_decompress(&decode->info);
    decode->created = 1;
    decode->bytes = bytes;
    decode->length = length;
    decode->source.init_source = jm_init_source;
    decode->source.fill_input_buffer = jm_fill_input_buffer;
    decode->source.skip_input_data = jm_skip_input_data;
    decode->source.resync_to_restart = jpeg_resync_to_restart;
    decode->source.term_source = jm_term_source;
    decode->info.src = &decode->source;
    jpeg_save_markers(&decode->info, JPEG_APP0 + 2, 0xffff);
    jpeg_read_header(&decode->info, TRUE);
    decode->info.scale_num = 1;
    decode->info.scale_denom = (unsigned int) (shrink == 2 || shrink == 4 || shrink == 8 ? shrink : 1);
    jpeg_calc_output_dimensions(&decode->info);
    // libvips 8.14 inverts every CMYK (and YCCK) JPEG's samples, Adobe marker or not
    // (Photoshop's convention; checked against its loader with the marker cut out).
    decode->invert = decode->info.out_color_space == JCS_CMYK;
    unsigned int scale = decode->info.scale_denom;
    decode->width = (int) (decode->info.image_width / scale);
    decode->height = (int) (decode->info.image_height / scale);
    if (decode->width == 0) decode->width = (int) decode->info.output_width;
    if (decode->height == 0) decode->height = (int) decode->info.output_height;
    jm_collect_profile(decode);
    jpeg_start_decompress(&decode->info);
    if ((JDIMENSION) decode->width < decode->info.output_width || (JDIMENSION) decode->height < decode->info.output_height) {
        decode->scratch = malloc((size_t) decode->info.output_width * (size_t) decode->info.output_components);
        if (!decode->scratch) ERREXIT1(&decode->info, JERR_OUT_OF_MEMORY, 1);
    }
    return decode;
}

int jm_jpeg_decode_failed(const jm_jpeg_decode *decode) { return decode->errors.failed; }

const char *jm_jpeg_decode_message(const jm_jpeg_decode *decode) { return decode->errors.message; }

int jm_jpeg_decode_width(const jm_jpeg_decode *decode) { return decode->width; }

int jm_jpeg_decode_height(const jm_jpeg_decode *decode) { return decode->height; }

jm_jpeg_colour jm_jpeg_decode_colour(const jm_jpeg_decode *decode) {
    int components = decode->info.output_components;
    switch (decode->info.out_color_space) {
    case JCS_GRAYSCALE: return components == 1 ? JM_JPEG_GREY : JM_JPEG_OTHER;
    case JCS_RGB: return components == 3 ? JM_JPEG_RGB : JM_JPEG_OTHER;
    case JCS_CMYK: return components == 4 ? JM_JPEG_CMYK : JM_JPEG_OTHER;
    default: return JM_JPEG_OTHER;
    }
}

const unsigned char *jm_jpeg_decode_profile(const jm_jpeg_decode *decode, size_t *length) {
    *length = decode->profile_length;
    return decode->profile;
}

int jm_jpeg_decode_rows(jm_jpeg_decode *decode, unsigned char *target, size_t stride, int rows) {
    if (decode->errors.failed || rows < 0 || rows > decode->height - decode->row) return -1;
    if (setjmp(decode->errors.escape)) return -1;
    size_t kept = (size_t) decode->width * (size_t) decode->info.output_components;
    int done = 0;
    while (done < rows) {
        // libvips reads 8-row strips and, with fail_on=warning, fails at the start of a
        // strip when a warning came before it (one raised in the last strip goes unseen).
        if (decode->row % 8 == 0 && decode->fail_on_warning && decode->errors.base.num_warnings > 0) {
            decode->errors.failed = 1;
            return -1;
        }
        JSAMPROW pointers[8];
        int asked = 8 - decode->row % 8;
        if (asked > rows - done) asked = rows - done;
        int cropped = (JDIMENSION) decode->width < decode->info.output_width;
        if (cropped) asked = 1;
        for (int i = 0; i < asked; i++) pointers[i] = target + (size_t) (done + i) * stride;
        if (cropped) pointers[0] = decode->scratch;
        JDIMENSION got = jpeg_read_scanlines(&decode->info, pointers, (JDIMENSION) asked);
        if (got == 0) {
            // Only a suspending source returns nothing; this one never suspends.
            snprintf(decode->errors.message, sizeof decode->errors.message, "libjpeg returned no scanlines");
            decode->errors.failed = 1;
            return -1;
        }
        if (cropped) memcpy(target + (size_t) done * stride, decode->scratch, kept);
        for (JDIMENSION i = 0; decode->invert && i < got; i++) {
            unsigned char *row = target + (size_t) (done + (int) i) * stride;
            for (size_t x = 0; x < kept; x++) row[x] = (unsigned char) (255 - row[x]);
        }
        done += (int) got;
        decode->row += (int) got;
    }
    // libvips reads the row libjpeg gives beyond the kept ones (its size rounds up) with
    // the last strip: damage there fails the same way.
    while (decode->row == decode->height && decode->info.output_scanline < decode->info.output_height) {
        JSAMPROW extra = decode->scratch;
        if (jpeg_read_scanlines(&decode->info, &extra, 1) == 0) {
            snprintf(decode->errors.message, sizeof decode->errors.message, "libjpeg returned no scanlines");
            decode->errors.failed = 1;
            return -1;
        }
    }
    return 0;
}

void jm_jpeg_decode_close(jm_jpeg_decode *decode) {
    if (!decode) return;
    if (decode->created) jpeg_destroy_decompress(&decode->info);
    free(decode->scratch);
    free(decode->profile);
    free(decode);
}

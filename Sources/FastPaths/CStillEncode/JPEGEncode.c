// JPEG encode of 8-bit grey or RGB rows through libjpeg, errors caught with setjmp/longjmp.
#include "CStillEncode.h"

#include <stdlib.h>
#include <string.h>
#include <CJPEGErrors.h>
#include <jerror.h>

/// A growing malloc'd buffer as libjpeg's destination. Not libjpeg's jpeg_mem_dest: that one
/// publishes its buffer only when compression finishes, so after an error or a stop part-way
/// the caller cannot tell which of its buffers is live; this one always knows.
typedef struct {
    struct jpeg_destination_mgr base;
    uint8_t *data;
    size_t capacity;
} jm_jpeg_destination;

static void jm_jpeg_destination_init(j_compress_ptr cinfo) {
    jm_jpeg_destination *destination = (jm_jpeg_destination *) cinfo->dest;
    destination->base.next_output_byte = destination->data;
    destination->base.free_in_buffer = destination->capacity;
}

/// Doubles the buffer when libjpeg has filled it (libjpeg's contract: the whole buffer is full).
static boolean jm_jpeg_destination_grow(j_compress_ptr cinfo) {
    jm_jpeg_destination *destination = (jm_jpeg_destination *) cinfo->dest;
    size_t capacity = destination->capacity * 2;
    uint8_t *data = realloc(destination->data, capacity);
    if (!data) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 20);
    destination->base.next_output_byte = data + destination->capacity;
    destination->base.free_in_buffer = capacity - destination->capacity;
    destination->data = data;
    destination->capacity = capacity;
    return TRUE;
}

static void jm_jpeg_destination_term(j_compress_ptr cinfo) { (void) cinfo; }

/// Rows handed to libjpeg per call, and between two `should_stop` checks.
enum { JM_JPEG_ROW_BATCH = 16 };

jm_still_encode_status jm_jpeg_encode(const uint8_t *pixels, int width, int height, int bands, size_t stride,
                                      jm_jpeg_settings settings, jm_still_encode_should_stop should_stop,
                                      void *context, jm_still_encode_output *output) {
    output->data = NULL;
    output->size = 0;
    output->message[0] = 0;
    if (bands != 1 && bands != 3) {
        snprintf(output->message, sizeof output->message, "JPEG encode of %d bands", bands);
        return JM_STILL_ENCODE_FAILED;
    }
    struct jpeg_compress_struct cinfo;
    jm_jpeg_errors errors;
    // On the heap, its address fixed before setjmp, so it is current after a longjmp. Starts at
    // an eighth of a byte per sample (a photo at quality 85 is about that), at least 16 KiB.
    jm_jpeg_destination *destination = calloc(1, sizeof *destination);
    if (destination) {
        destination->capacity = (size_t) width * (size_t) height * (size_t) bands / 8 + 16384;
        destination->data = malloc(destination->capacity);
    }
    if (!destination || !destination->data) {
        free(destination);
        snprintf(output->message, sizeof output->message, "JPEG encode: out of memory");
        return JM_STILL_ENCODE_FAILED;
    }
    destination->base.init_destination = jm_jpeg_destination_init;
    destination->base.empty_output_buffer = jm_jpeg_destination_grow;
    destination->base.term_destination = jm_jpeg_destination_term;
    jm_still_encode_status status = JM_STILL_ENCODE_OK;
    cinfo.err = jm_jpeg_errors_use(&errors);
    if (setjmp(errors.escape)) {
        // destination is set before the setjmp and never changed (see CJPEGErrors.h);
        // destination->data is current: a failing realloc in jm_jpeg_destination_grow leaves
        // the old block in place.
        snprintf(output->message, sizeof output->message, "libjpeg: %.180s", errors.message);
        jpeg_destroy_compress(&cinfo);
        free(destination->data);
        free(destination);
        return JM_STILL_ENCODE_FAILED;
    }
    jpeg_create_compress(&cinfo);
    cinfo.dest = &destination->base;
    cinfo.image_width = (JDIMENSION) width;
    cinfo.image_height = (JDIMENSION) height;
    cinfo.input_components = bands;
    cinfo.in_color_space = bands == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    cinfo.optimize_coding = settings.optimize_coding ? TRUE : FALSE;
    jpeg_set_quality(&cinfo, settings.quality, TRUE);
    if (settings.progressive) jpeg_simple_progression(&cinfo);
    int factor = bands == 3 && settings.subsample ? 2 : 1;
    cinfo.comp_info[0].h_samp_factor = factor;
    cinfo.comp_info[0].v_samp_factor = factor;
    for (int i = 1; i < cinfo.num_components; i++) {
        cinfo.comp_info[i].h_samp_factor = 1;
        cinfo.comp_info[i].v_samp_factor = 1;
    }
    // No APP0 (JFIF) marker, as libvips writes with `strip`; no other markers either.
    cinfo.write_JFIF_header = FALSE;
    cinfo.write_Adobe_marker = FALSE;
    jpeg_start_compress(&cinfo, TRUE);
    JSAMPROW rows[JM_JPEG_ROW_BATCH];
    while (cinfo.next_scanline < cinfo.image_height) {
        if (should_stop && should_stop(context, (int) ((uint64_t) cinfo.next_scanline * 100 / cinfo.image_height))) {
            status = JM_STILL_ENCODE_STOPPED;
            break;
        }
        JDIMENSION first = cinfo.next_scanline;
        JDIMENSION count = cinfo.image_height - first;
        if (count > JM_JPEG_ROW_BATCH) count = JM_JPEG_ROW_BATCH;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = (JSAMPROW) (pixels + (size_t) (first + i) * stride);
        jpeg_write_scanlines(&cinfo, rows, count);
    }
    if (status == JM_STILL_ENCODE_STOPPED) {
        jpeg_destroy_compress(&cinfo);
        free(destination->data);
        free(destination);
        return status;
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    output->data = destination->data;
    output->size = destination->capacity - destination->base.free_in_buffer;
    free(destination);
    return JM_STILL_ENCODE_OK;
}

void jm_still_encode_free(uint8_t *data) { free(data); }

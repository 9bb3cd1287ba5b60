// libjpeg's error manager shared by CJPEGDecode and CStillEncode; see CJPEGErrors.h.
#include "CJPEGErrors.h"

static jm_jpeg_errors *owner(j_common_ptr info) { return (jm_jpeg_errors *) info->err; }

/// Fatal errors: keep the text, leave through the caller's setjmp.
static void jm_error_exit(j_common_ptr info) {
    info->err->format_message(info, owner(info)->message);
    owner(info)->failed = 1;
    longjmp(owner(info)->escape, 1);
}

/// Warnings (level < 0) are counted and the first one's text kept; trace messages (level ≥ 0)
/// are dropped.
static void jm_emit_message(j_common_ptr info, int level) {
    if (level >= 0) return;
    if (++info->err->num_warnings == 1) info->err->format_message(info, owner(info)->message);
}

/// Nothing is printed to stderr.
static void jm_output_message(j_common_ptr info) { (void) info; }

struct jpeg_error_mgr *jm_jpeg_errors_use(jm_jpeg_errors *errors) {
    struct jpeg_error_mgr *base = jpeg_std_error(&errors->base);
    base->error_exit = jm_error_exit;
    base->emit_message = jm_emit_message;
    base->output_message = jm_output_message;
    errors->failed = 0;
    errors->message[0] = 0;
    return base;
}

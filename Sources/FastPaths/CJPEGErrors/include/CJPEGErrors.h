// libjpeg's error manager for the C targets that call libjpeg on the calling thread
// (CJPEGDecode, CStillEncode): a fatal error keeps libjpeg's text and longjmps back to the
// caller's setjmp (error_exit must not return; Swift cannot call setjmp); warnings are counted
// and the first one's text kept; nothing is printed. Written here.
//
// The setjmp rules, in one place:
// - Every function that calls libjpeg sets `escape` with setjmp before the call (a jmp_buf is
//   dead once the function that set it has returned).
// - After the longjmp, that function's locals changed since the setjmp are indeterminate unless
//   `volatile`: what the landing code reads lives on the heap (the decode's state, the encoder's
//   destination) or in locals not changed after the setjmp.
// - The landing code still owns libjpeg's object: jpeg_destroy_* is safe after any error.
#ifndef JOURNALMEDIA_CJPEGERRORS_H
#define JOURNALMEDIA_CJPEGERRORS_H
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

/// libjpeg's error manager (first, so libjpeg's `err` is this struct's address), the place to
/// jump back to, whether a fatal error came (callers may set it for their own failures) and the
/// message: the fatal error's text, else the first warning's (`base.num_warnings` counts them),
/// else "".
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    int failed;
    char message[JMSG_LENGTH_MAX];
} jm_jpeg_errors;

/// Fills `errors` (libjpeg's standard manager with this file's error_exit, emit_message and
/// output_message) and returns what to store in the libjpeg object's `err` before
/// jpeg_create_*. No allocation.
struct jpeg_error_mgr *jm_jpeg_errors_use(jm_jpeg_errors *errors);

#endif

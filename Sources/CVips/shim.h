// libvips and GLib for Swift. GLib's type constants are C macros that Swift cannot
// import; these inline functions expose the few the operation layer needs.
#ifndef JOURNALMEDIA_CVIPS_SHIM_H
#define JOURNALMEDIA_CVIPS_SHIM_H
#include <sys/syscall.h>
#include <unistd.h>
#include <vips/vips.h>
#include <gmodule.h>

static inline GType jm_gtype_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType jm_gtype_int(void) { return G_TYPE_INT; }
static inline GType jm_gtype_double(void) { return G_TYPE_DOUBLE; }
static inline GType jm_gtype_string(void) { return G_TYPE_STRING; }
static inline GType jm_gtype_enum(void) { return G_TYPE_ENUM; }
static inline GType jm_gtype_flags(void) { return G_TYPE_FLAGS; }
static inline GType jm_gtype_object(void) { return G_TYPE_OBJECT; }
static inline GType jm_gtype_boxed(void) { return G_TYPE_BOXED; }
static inline GType jm_gvalue_type(const GValue *value) { return G_VALUE_TYPE(value); }
// An image's "eval" signal (emitted as tiles are computed once vips_image_set_progress is on):
// `callback` gets `data`; `release` is called with `data` when the handler goes with the image.
typedef void (*jm_eval_callback)(VipsImage *image, VipsProgress *progress, void *data);
static inline gulong jm_connect_eval(VipsImage *image, jm_eval_callback callback, void *data, GClosureNotify release) {
    return g_signal_connect_data(image, "eval", G_CALLBACK(callback), data, release, (GConnectFlags) 0);
}

// An anonymous in-memory file (Linux memfd), closed on exec: for libvips loaders that read
// only from a file name (OpenEXR in 8.14). Returns the descriptor, or -1 with errno set.
// (The system call directly: glibc declares memfd_create only under _GNU_SOURCE, which would
// change struct definitions other modules share. 1 is MFD_CLOEXEC.)
static inline int jm_memfd_create(const char *name) { return (int) syscall(SYS_memfd_create, name, 1U); }

#endif

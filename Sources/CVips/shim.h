// libvips and GLib for Swift. GLib's type constants are C macros that Swift cannot
// import; these inline functions expose the few the operation layer needs.
#ifndef JOURNALMEDIA_CVIPS_SHIM_H
#define JOURNALMEDIA_CVIPS_SHIM_H
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
/* The "eval" signal (libvips' progress while pixels are computed), connected through
   g_signal_connect_data because G_CALLBACK and the signal's handler type are macros. */
typedef void (*jm_eval_handler)(VipsImage *image, VipsProgress *progress, void *data);
static inline gulong jm_connect_eval(VipsImage *image, jm_eval_handler handler, void *data, GClosureNotify destroy) {
    return g_signal_connect_data(image, "eval", G_CALLBACK(handler), data, destroy, (GConnectFlags) 0);
}


#endif

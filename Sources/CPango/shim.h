// Pango (with its cairo font map, the one libvips' `text` uses) for the card renderer's
// text measurement. Imported by JournalMediaImaging only.
#ifndef JOURNALMEDIA_CPANGO_SHIM_H
#define JOURNALMEDIA_CPANGO_SHIM_H
#include <pango/pangocairo.h>

static inline int jm_pango_scale(void) { return PANGO_SCALE; }

#endif

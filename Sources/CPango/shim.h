// Pango (with its cairo font map, the one libvips' `text` uses) for the card renderer's
// text measurement. Imported by JournalMediaImaging only.
//
// The few Pango types and functions the renderer calls, declared here with Pango 1.50's
// prototypes instead of including <pango/pangocairo.h>: Pango's pkg-config names all bring
// GModule's `-pthread`, which SwiftPM drops with a warning in every build of a package that
// depends on this one. GLib's types come from gobject-2.0 (no such flag); the module map
// links the libraries. Tests/HeaderChecks/pango_shim_check.c (`make test`) compiles this beside Pango's own
// headers, so a prototype that differs from the installed Pango's is an error.
#ifndef JOURNALMEDIA_CPANGO_SHIM_H
#define JOURNALMEDIA_CPANGO_SHIM_H
#include <glib-object.h>

typedef struct _PangoContext PangoContext;
typedef struct _PangoFontMap PangoFontMap;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct _PangoRectangle PangoRectangle;
typedef struct _PangoLayoutLine PangoLayoutLine;
typedef struct _PangoLogAttr PangoLogAttr;

#ifndef __PANGO_TYPES_H__
struct _PangoRectangle { int x; int y; int width; int height; };
#endif
#ifndef __PANGO_LAYOUT_H__
typedef enum { PANGO_ALIGN_LEFT, PANGO_ALIGN_CENTER, PANGO_ALIGN_RIGHT } PangoAlignment;
typedef enum { PANGO_WRAP_WORD, PANGO_WRAP_CHAR, PANGO_WRAP_WORD_CHAR, PANGO_WRAP_NONE } PangoWrapMode;
/// The public head of a laid-out line (read through a pointer only).
struct _PangoLayoutLine {
    PangoLayout *layout;
    gint start_index;
    gint length;
    GSList *runs;
    guint is_paragraph_start : 1;
    guint resolved_dir : 3;
};
#endif
#ifndef __PANGO_BREAK_H__
/// One character's break attributes: 15 flags and 17 reserved bits, 4 bytes.
struct _PangoLogAttr {
    guint is_line_break : 1;
    guint other_flags : 14;
    guint reserved : 17;
};
#endif

PangoFontMap *pango_cairo_font_map_new(void);
PangoContext *pango_font_map_create_context(PangoFontMap *fontmap);
void pango_cairo_context_set_resolution(PangoContext *context, double dpi);
PangoLayout *pango_layout_new(PangoContext *context);
void pango_layout_set_markup(PangoLayout *layout, const char *markup, int length);
PangoFontDescription *pango_font_description_from_string(const char *str);
void pango_layout_set_font_description(PangoLayout *layout, const PangoFontDescription *desc);
void pango_font_description_free(PangoFontDescription *desc);
void pango_layout_set_width(PangoLayout *layout, int width);
void pango_layout_set_wrap(PangoLayout *layout, PangoWrapMode wrap);
void pango_layout_set_alignment(PangoLayout *layout, PangoAlignment alignment);
void pango_layout_get_pixel_extents(PangoLayout *layout, PangoRectangle *ink_rect, PangoRectangle *logical_rect);
int pango_layout_get_line_count(PangoLayout *layout);
int pango_layout_get_unknown_glyphs_count(PangoLayout *layout);
const char *pango_layout_get_text(PangoLayout *layout);
const PangoLogAttr *pango_layout_get_log_attrs_readonly(PangoLayout *layout, gint *n_attrs);
GSList *pango_layout_get_lines_readonly(PangoLayout *layout);
const char *pango_version_string(void);

static inline int jm_pango_scale(void) { return 1024; }

#endif

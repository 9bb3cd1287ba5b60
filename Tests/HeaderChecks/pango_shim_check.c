// Compiles Sources/CPango/shim.h after Pango's own headers: any prototype or type that
// differs from the installed Pango's is a conflicting-declaration error.
#include <pango/pangocairo.h>
#include "../../Sources/CPango/shim.h"
_Static_assert(sizeof(PangoLogAttr) == 4, "PangoLogAttr is 4 bytes");
_Static_assert(PANGO_SCALE == 1024, "PANGO_SCALE");
_Static_assert(__builtin_offsetof(PangoLayoutLine, start_index) == sizeof(void *), "start_index follows the layout pointer");
int main(void) { return 0; }

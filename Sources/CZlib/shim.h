// zlib's inflate, for compressed PNG text chunks (iTXt/zTXt).
#ifndef JOURNALMEDIA_CZLIB_SHIM_H
#define JOURNALMEDIA_CZLIB_SHIM_H
#include <zlib.h>
#endif

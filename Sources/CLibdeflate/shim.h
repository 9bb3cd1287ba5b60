// libdeflate's whole-buffer zlib compression and CRC-32, for the PNG encode of renditions
// (DirectPNGEncode). Debian's libdeflate0 is already in the process through libvips' libtiff.
#ifndef JOURNALMEDIA_CLIBDEFLATE_SHIM_H
#define JOURNALMEDIA_CLIBDEFLATE_SHIM_H
#include <libdeflate.h>
#endif

// glibc's <malloc.h> (mallopt and its M_* parameters), which Swift's Glibc module leaves out.
#ifndef JOURNALMEDIA_CMALLOC_SHIM_H
#define JOURNALMEDIA_CMALLOC_SHIM_H
#include <malloc.h>
#endif

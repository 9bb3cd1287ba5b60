// libavutil, libavcodec, libavformat, libswscale and libavfilter opened with dlopen on first use
// instead of being linked into the program (issue 19). Linked, Debian's builds brought 63 of the
// 180 libraries every run mapped (gnutls, srt, ssh, zmq, codec libraries…) and 7,500 of its
// 42,000 relocations: ~20 ms of CPU and of wall per run (Benchmarks/RESULTS.md), although most
// runs convert stills and never call libav. libavfilter brings about 30 more (flite, pocketsphinx,
// LAPACK, Vulkan, libplacebo…) and is needed only by the rare HDR poster the table tone curve
// does not cover (HDRFilterGraphToneMapper), so only that run loads it.
//
// How: LibavLoader.c defines, with libav's own prototypes, every libav function the toolkit
// calls. Each definition forwards to the real function through a pointer resolved with dlsym
// when its library is first needed; the definitions are hidden, so the program exports none
// of them and the libraries, once loaded, bind only to each other. Loading a library loads
// the ones it depends on first (libavformat: libavcodec, libavutil; libswscale: libavutil;
// libavfilter: libavformat, libavcodec, libswscale, libavutil).
//
// When: the Video/ entry points (`LibavRuntime.configure(_:)`) call
// `jm_libav_require` before their first libav call, so a library that cannot be loaded
// becomes a typed failure naming it and dlerror()'s text. A forwarding function reached
// without that check loads its library itself; if that fails it reports the library and the
// function on stderr and aborts (a programming error: the entry point did not check).
//
// Costs: the first require of a library is its dlopen (what linking it cost, now paid by the
// runs that use it: libavformat's tree ~35 ms of CPU from a small C program, libavcodec's
// ~25 ms, libavutil's ~4 ms; libavfilter's ~20 ms more) and one dlsym per function; after that a
// forwarded call costs one acquire load, a predictable branch and an indirect jump.
#ifndef JOURNALMEDIA_CLIBAVLOADER_H
#define JOURNALMEDIA_CLIBAVLOADER_H

/// The libraries, in dependency order.
typedef enum {
    JM_LIBAVUTIL = 0,
    JM_LIBAVCODEC = 1,
    JM_LIBAVFORMAT = 2,
    JM_LIBSWSCALE = 3,
    JM_LIBAVFILTER = 4,
} jm_libav_library;

/// Loads `library` (and the libraries it depends on) once per process and resolves its
/// functions. Thread-safe. Returns 0 when every function is there, -1 when the library or a
/// function is missing (the outcome is kept: later calls return it without retrying).
int jm_libav_require(jm_libav_library library);

/// Why `library` could not be loaded ("libavcodec.so.59: <dlerror text>"), or NULL when it
/// loaded or has not been tried. The text lives as long as the process.
const char *jm_libav_load_error(jm_libav_library library);

/// The file name `library` is opened by ("libavcodec.so.59", the major version of the
/// headers this was compiled against, so the structures have the layout the code expects).
const char *jm_libav_soname(jm_libav_library library);

#endif

// Per-computation libvips error text. libvips 8.14 keeps one error buffer for the whole
// process, so under concurrency a failing image could read another image's message. This
// target defines libvips' own entry points `vips_verror`, `vips_error_freeze`,
// `vips_error_thaw`, `vips_error_clear`, `vips_threadpool_run` and `vips_sink_disc`; libvips
// calls them through its PLT, so these definitions (linked into the program) win, and each
// forwards to the real function (dlsym RTLD_NEXT), so libvips' own buffer keeps working.
//
// Where a message goes: every libvips message (`vips_error`, `vips_error_system`,
// `vips_g_error` all end in `vips_verror`) is appended to the record of the computation the
// current thread serves. An ordinary thread serves itself: its own record. A libvips worker
// thread serves the thread that called `vips_threadpool_run` (pixel decoding, savers'
// pixels) or `vips_sink_disc` (savers' write-behind thread), and only while it runs that
// caller's start, allocate, work or write callback: the wrappers lend it the caller's record
// for the duration of each callback and take it back after, and `vips_threadpool_run` and
// `vips_sink_disc` return only after every worker has finished, so a lent record is always
// alive. A message raised on a libvips thread outside those callbacks (a region's stop
// function as a worker exits) belongs to no known computation: it goes to libvips' buffer
// only, never to a record.
// `vips_error_freeze` is per thread here (libvips' is process-wide): a thread's frozen
// messages are dropped for that thread only.
//
// Costs: per message one vsnprintf, one lock and a copy into the record (capped at 8 KiB,
// oldest lines dropped first); per computation one wrapper on the caller's stack and two
// thread-local writes around each callback (each tile); per thread one record (a mutex and
// its text, 256 bytes to 8 KiB), made on first use, freed when the thread exits.
#ifndef JOURNALMEDIA_CVIPSMESSAGES_H
#define JOURNALMEDIA_CVIPSMESSAGES_H

/// This thread's libvips messages since the last take or clear, one per line ("domain:
/// text"; a warning's line starts with JM_VIPS_WARNING_MARK), as a malloc'd string the caller
/// frees; NULL when there are none. Clears them.
char *jm_vips_messages_take(void);

/// The first byte of a line that is a warning (`jm_vips_messages_warn`), not an error.
#define JM_VIPS_WARNING_MARK '\x1f'

/// Adds `text`, a libvips warning (GLib's "VIPS" log domain: libpng's "IHDR: CRC error"
/// reaches libvips' callers only so), to the messages of the computation this thread serves,
/// marked as a warning; dropped on a libvips thread serving no known computation. Kept even
/// when libvips' calls do not reach the definitions here (then only warnings raised on the
/// calling thread itself). Called from the GLib log handler.
void jm_vips_messages_warn(const char *text);

/// Forgets this thread's libvips messages (before a call whose failure will be read).
void jm_vips_messages_clear(void);

/// 1 when libvips' calls reach the definitions here (the program exports them ahead of
/// libvips, as a linked executable or a shared library loaded before libvips does); 0 when
/// libvips binds to its own (this code loaded with dlopen RTLD_LOCAL, say): then messages are
/// only in libvips' shared buffer.
int jm_vips_messages_active(void);

/// 1 when libvips `major.minor` is a version the interposition was verified with (8.14: every
/// message, including those of worker threads, reached its record); 0 otherwise.
int jm_vips_messages_verified(int major, int minor);

/// Turns the per-computation error records on (1) or off (0, the state before the first
/// call). Off, the definitions here forward every call unchanged to libvips and record no
/// errors (warnings still are, see `jm_vips_messages_warn`). Call once, after `vips_init` and
/// before any libvips computation, with `jm_vips_messages_active() &&
/// jm_vips_messages_verified(vips_version(0), vips_version(1))`.
void jm_vips_messages_enable(int on);

/// 1 when the records are on (`jm_vips_messages_enable`).
int jm_vips_messages_enabled(void);

// Stopping a drawing in flight. libvips' kill flag is checked between tiles, but librsvg draws
// an SVG's tile in one call (a 1 KB drawing of stacked blurs: half a minute), so a decode
// past its deadline would go on drawing. This target also defines cairo's
// `cairo_image_surface_create` (librsvg calls it through its PLT for every layer and every
// filter pass, every few tens of milliseconds): when the guard of the computation the calling
// thread serves says stop, it hands back cairo's error surface instead, and librsvg unwinds
// with a rendering error. Which guard: the toolkit registers three functions (capture the
// calling thread's guard, retained; ask it whether to stop; release it); `vips_threadpool_run`
// and `vips_sink_disc` capture the caller's guard and lend it to the workers around each
// callback, as they lend the message record. Costs per new surface one guard query (an atomic
// load and a clock read), per computation one retain and release.

/// Returns the calling thread's guard retained, or NULL.
typedef void *(*jm_stop_capture_fn)(void);
/// 1 when `guard` says stop.
typedef int (*jm_stop_query_fn)(void *guard);
/// Releases a guard `capture` returned.
typedef void (*jm_stop_release_fn)(void *guard);

/// Registers the guard functions (once, at libvips start-up).
void jm_stop_hooks_set(jm_stop_capture_fn capture, jm_stop_query_fn query, jm_stop_release_fn release);

/// 1 when the guard of the computation the calling thread serves says stop.
int jm_stop_requested(void);

#endif

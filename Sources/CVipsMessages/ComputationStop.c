// A stop signal for drawing that libvips' kill flag cannot reach, and the lending of that
// signal to libvips' worker threads (see CVipsMessages.h, "Stopping a drawing in flight").
#define _GNU_SOURCE
#include "CVipsMessages.h"
#include "ComputationStop.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>

// The toolkit's guard, reached through three functions it registers once.
static _Atomic(jm_stop_capture_fn) hook_capture;
static _Atomic(jm_stop_query_fn) hook_query;
static _Atomic(jm_stop_release_fn) hook_release;

void jm_stop_hooks_set(jm_stop_capture_fn capture, jm_stop_query_fn query, jm_stop_release_fn release) {
    atomic_store(&hook_release, release);
    atomic_store(&hook_query, query);
    atomic_store(&hook_capture, capture);
}

static __thread void *lent_stop; // while `lent_stop_active`: the guard of the computation served
static __thread int lent_stop_active;

void *jm_stop_capture(int *owned) {
    *owned = 0;
    if (lent_stop_active) return lent_stop;
    jm_stop_capture_fn capture = atomic_load(&hook_capture);
    if (!capture) return NULL;
    void *guard = capture();
    *owned = guard != NULL;
    return guard;
}

void jm_stop_drop(void *guard, int owned) {
    jm_stop_release_fn release = atomic_load(&hook_release);
    if (owned && guard && release) release(guard);
}

void jm_stop_lend(void *guard, jm_stop_saved *saved) {
    saved->guard = lent_stop;
    saved->active = lent_stop_active;
    lent_stop = guard;
    lent_stop_active = 1;
}

void jm_stop_restore(const jm_stop_saved *saved) {
    lent_stop = saved->guard;
    lent_stop_active = saved->active;
}

int jm_stop_requested(void) {
    jm_stop_query_fn query = atomic_load(&hook_query);
    if (!query) return 0;
    int owned;
    void *guard = jm_stop_capture(&owned);
    int stop = guard ? query(guard) : 0;
    jm_stop_drop(guard, owned);
    return stop;
}

// cairo's image-surface constructor, defined here so librsvg's calls (through its PLT) reach it
// first. librsvg makes a new surface for every layer and every filter primitive's pass, so a
// drawing that was told to stop gets an error surface at its next one (cairo's own answer to an
// invalid format) and unwinds with "rendering error" instead of drawing on for minutes.
static void *(*real_image_surface_create)(int, int, int);
static pthread_once_t real_cairo_once = PTHREAD_ONCE_INIT;

static void find_real_cairo(void) {
    real_image_surface_create = (void *(*)(int, int, int)) dlsym(RTLD_NEXT, "cairo_image_surface_create");
}

void *cairo_image_surface_create(int format, int width, int height) {
    pthread_once(&real_cairo_once, find_real_cairo);
    void *(*real)(int, int, int) = real_image_surface_create;
    if (!real) return NULL;
    if (jm_stop_requested()) return real(-1 /* CAIRO_FORMAT_INVALID */, 0, 0);
    return real(format, width, height);
}

// Internal to CVipsMessages: how VipsMessageCapture.c lends the caller's stop signal to the
// libvips workers that serve it (ComputationStop.c).
#ifndef JOURNALMEDIA_COMPUTATIONSTOP_H
#define JOURNALMEDIA_COMPUTATIONSTOP_H

/// A thread's lent guard before a callback, put back after it.
typedef struct {
    void *guard;
    int active;
} jm_stop_saved;

/// The guard of the computation the calling thread serves (lent), else the toolkit's current
/// guard for this thread (retained: `*owned` is 1 and `jm_stop_drop` releases it); NULL: none.
void *jm_stop_capture(int *owned);
void jm_stop_drop(void *guard, int owned);
/// Lends `guard` to the calling thread for one callback; `jm_stop_restore` takes it back.
void jm_stop_lend(void *guard, jm_stop_saved *saved);
void jm_stop_restore(const jm_stop_saved *saved);

#endif

// libvips' error entry points, defined here so each message reaches the record of the
// computation it belongs to (see CVipsMessages.h for the design and its costs). No libvips
// header is included: the prototypes below are libvips 8.14's, with GLib's gboolean as int
// and object pointers as void *, so these definitions cannot clash with vips.h's.
#define _GNU_SOURCE
#include "CVipsMessages.h"
#include "ComputationStop.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *(*jm_start_fn)(void *image, void *a);
typedef int (*jm_allocate_fn)(void *state, void *a, int *stop);
typedef int (*jm_work_fn)(void *state, void *a);
typedef int (*jm_progress_fn)(void *a);
typedef int (*jm_write_fn)(void *region, void *area, void *a);

void vips_verror(const char *domain, const char *format, va_list ap);
void vips_error_freeze(void);
void vips_error_thaw(void);
void vips_error_clear(void);
int vips_threadpool_run(void *image, jm_start_fn start, jm_allocate_fn allocate, jm_work_fn work,
                        jm_progress_fn progress, void *a);
int vips_sink_disc(void *image, jm_write_fn write, void *a);

// The real libvips functions, found once, after this definition in the lookup order.
static struct {
    void (*verror)(const char *, const char *, va_list);
    void (*freeze)(void);
    void (*thaw)(void);
    void (*clear)(void);
    int (*threadpool_run)(void *, jm_start_fn, jm_allocate_fn, jm_work_fn, jm_progress_fn, void *);
    int (*sink_disc)(void *, jm_write_fn, void *);
    int (*thread_isvips)(void);
} real;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;
static pthread_key_t record_key;

/// The messages of one computation: a thread's own, lent to libvips workers while they
/// serve it. Locked: the owner and its workers may append at once.
typedef struct {
    pthread_mutex_t lock;
    char *text;
    size_t length;
    size_t capacity;
} jm_record;

enum { JM_RECORD_LIMIT = 8192 };

static __thread jm_record *own_record;  // this thread's record, made on first use

// Runs on the exiting thread (its pthread key's destructor).
static void record_free(void *pointer) {
    jm_record *record = pointer;
    if (!record) return;
    if (own_record == record) own_record = NULL;
    pthread_mutex_destroy(&record->lock);
    free(record->text);
    free(record);
}

static void find_real(void) {
    real.verror = (void (*)(const char *, const char *, va_list)) dlsym(RTLD_NEXT, "vips_verror");
    real.freeze = (void (*)(void)) dlsym(RTLD_NEXT, "vips_error_freeze");
    real.thaw = (void (*)(void)) dlsym(RTLD_NEXT, "vips_error_thaw");
    real.clear = (void (*)(void)) dlsym(RTLD_NEXT, "vips_error_clear");
    real.threadpool_run = (int (*)(void *, jm_start_fn, jm_allocate_fn, jm_work_fn, jm_progress_fn, void *))
        dlsym(RTLD_NEXT, "vips_threadpool_run");
    real.sink_disc = (int (*)(void *, jm_write_fn, void *)) dlsym(RTLD_NEXT, "vips_sink_disc");
    real.thread_isvips = (int (*)(void)) dlsym(RTLD_NEXT, "vips_thread_isvips");
    pthread_key_create(&record_key, record_free);
}

static inline void ensure_real(void) { pthread_once(&real_once, find_real); }

// Set once at start-up (`jm_vips_messages_enable`); off, every definition forwards unchanged.
static int enabled;

static inline int is_enabled(void) { return __atomic_load_n(&enabled, __ATOMIC_ACQUIRE); }

static __thread jm_record *lent_record; // while `lent`: the record of the computation served
static __thread int lent;               // 1 inside a wrapped callback
static __thread int frozen;             // this thread's vips_error_freeze depth

static jm_record *own(void) {
    if (own_record) return own_record;
    jm_record *record = calloc(1, sizeof *record);
    if (!record) return NULL;
    pthread_mutex_init(&record->lock, NULL);
    ensure_real();
    pthread_setspecific(record_key, record);
    own_record = record;
    return record;
}

/// The record the current thread's messages belong to; NULL on a libvips thread that is not
/// serving a known computation.
static jm_record *current(void) {
    if (lent) return lent_record;
    ensure_real();
    if (real.thread_isvips && real.thread_isvips()) return NULL;
    return own();
}

/// Appends `line` (no newline) to `record`, dropping the oldest lines past the limit.
static void record_append(jm_record *record, const char *line, size_t count) {
    if (count > JM_RECORD_LIMIT / 2) count = JM_RECORD_LIMIT / 2;
    pthread_mutex_lock(&record->lock);
    size_t needed = record->length + count + 1;
    if (needed > JM_RECORD_LIMIT) {
        size_t drop = needed - JM_RECORD_LIMIT;
        const char *cut = memchr(record->text + drop, '\n', record->length - drop);
        drop = cut ? (size_t) (cut - record->text) + 1 : record->length;
        memmove(record->text, record->text + drop, record->length - drop);
        record->length -= drop;
        needed = record->length + count + 1;
    }
    if (needed + 1 > record->capacity) {
        size_t capacity = record->capacity ? record->capacity : 256;
        while (capacity < needed + 1) capacity *= 2;
        char *grown = realloc(record->text, capacity);
        if (!grown) {
            pthread_mutex_unlock(&record->lock);
            return;
        }
        record->text = grown;
        record->capacity = capacity;
    }
    memcpy(record->text + record->length, line, count);
    record->length += count;
    record->text[record->length++] = '\n';
    record->text[record->length] = '\0';
    pthread_mutex_unlock(&record->lock);
}

void vips_verror(const char *domain, const char *format, va_list ap) {
    ensure_real();
    if (is_enabled() && !frozen) {
        jm_record *record = current();
        if (record) {
            char line[1024];
            int used = 0;
            if (domain && *domain) used = snprintf(line, sizeof line, "%s: ", domain);
            if (used < 0) used = 0;
            if ((size_t) used < sizeof line && format) {
                va_list copy;
                va_copy(copy, ap);
                vsnprintf(line + used, sizeof line - (size_t) used, format, copy);
                va_end(copy);
            }
            size_t count = strlen(line);
            while (count > 0 && (line[count - 1] == '\n' || line[count - 1] == ' ')) count--;
            if (count > 0) record_append(record, line, count);
        }
    }
    if (real.verror) real.verror(domain, format, ap);
}

void vips_error_freeze(void) {
    ensure_real();
    frozen++;
    if (real.freeze) real.freeze();
}

void vips_error_thaw(void) {
    ensure_real();
    if (frozen > 0) frozen--;
    if (real.thaw) real.thaw();
}

static void record_clear(jm_record *record) {
    if (!record) return;
    pthread_mutex_lock(&record->lock);
    record->length = 0;
    if (record->text) record->text[0] = '\0';
    pthread_mutex_unlock(&record->lock);
}

// libvips clears its buffer when it has recovered from an error it raised; the computation
// this thread serves forgets its messages likewise.
void vips_error_clear(void) {
    ensure_real();
    record_clear(lent ? lent_record : own_record);
    if (real.clear) real.clear();
}

/// A computation's callbacks and the record they lend to the thread that runs them.
typedef struct {
    jm_start_fn start;
    jm_allocate_fn allocate;
    jm_work_fn work;
    jm_progress_fn progress;
    jm_write_fn write;
    void *a;
    jm_record *record;
    void *stop; // the caller's guard (ComputationStop.c), lent likewise
} jm_lending;

#define JM_LEND(lending, call)                                   \
    do {                                                         \
        jm_record *saved_record = lent_record;                   \
        int saved_lent = lent;                                   \
        jm_stop_saved saved_stop;                                \
        lent_record = (lending)->record;                         \
        lent = 1;                                                \
        jm_stop_lend((lending)->stop, &saved_stop);              \
        result = (call);                                         \
        jm_stop_restore(&saved_stop);                            \
        lent_record = saved_record;                              \
        lent = saved_lent;                                       \
    } while (0)

static void *lent_start(void *image, void *a) {
    jm_lending *lending = a;
    void *result;
    JM_LEND(lending, lending->start(image, lending->a));
    return result;
}

static int lent_allocate(void *state, void *a, int *stop) {
    jm_lending *lending = a;
    int result;
    JM_LEND(lending, lending->allocate(state, lending->a, stop));
    return result;
}

static int lent_work(void *state, void *a) {
    jm_lending *lending = a;
    int result;
    JM_LEND(lending, lending->work(state, lending->a));
    return result;
}

static int lent_progress(void *a) {
    jm_lending *lending = a;
    int result;
    JM_LEND(lending, lending->progress(lending->a));
    return result;
}

static int lent_write(void *region, void *area, void *a) {
    jm_lending *lending = a;
    int result;
    JM_LEND(lending, lending->write(region, area, lending->a));
    return result;
}

// The pool's threads run `start`, `allocate` and `work` for this caller; `progress` runs on
// the caller. libvips returns only after every worker has exited, so `lending` (on this
// stack) outlives every callback.
int vips_threadpool_run(void *image, jm_start_fn start, jm_allocate_fn allocate, jm_work_fn work,
                        jm_progress_fn progress, void *a) {
    ensure_real();
    if (!real.threadpool_run) return -1;
    if (!is_enabled()) return real.threadpool_run(image, start, allocate, work, progress, a);
    int owned;
    void *stop = jm_stop_capture(&owned);
    jm_lending lending = { start, allocate, work, progress, NULL, a, current(), stop };
    int result = real.threadpool_run(image, lent_start, lent_allocate, lent_work, progress ? lent_progress : NULL,
                                     &lending);
    jm_stop_drop(stop, owned);
    return result;
}

// A saver's write callback runs on libvips' write-behind thread (and, for the last buffer,
// on the caller); libvips waits for that thread before returning.
int vips_sink_disc(void *image, jm_write_fn write, void *a) {
    ensure_real();
    if (!real.sink_disc) return -1;
    if (!is_enabled()) return real.sink_disc(image, write, a);
    int owned;
    void *stop = jm_stop_capture(&owned);
    jm_lending lending = { NULL, NULL, NULL, NULL, write, a, current(), stop };
    int result = real.sink_disc(image, lent_write, &lending);
    jm_stop_drop(stop, owned);
    return result;
}

char *jm_vips_messages_take(void) {
    jm_record *record = own_record;
    if (!record) return NULL;
    pthread_mutex_lock(&record->lock);
    char *text = NULL;
    if (record->length > 0) {
        text = malloc(record->length + 1);
        if (text) memcpy(text, record->text, record->length + 1);
        record->length = 0;
        record->text[0] = '\0';
    }
    pthread_mutex_unlock(&record->lock);
    return text;
}

void jm_vips_messages_clear(void) { record_clear(own_record); }

void jm_vips_messages_warn(const char *text) {
    if (!text) return;
    jm_record *record = current();
    if (!record) return;
    char line[1024];
    snprintf(line, sizeof line, "%c%s", JM_VIPS_WARNING_MARK, text);
    size_t count = strlen(line);
    while (count > 1 && (line[count - 1] == '\n' || line[count - 1] == ' ')) count--;
    if (count > 1) record_append(record, line, count);
}

int jm_vips_messages_verified(int major, int minor) { return major == 8 && minor == 14; }

void jm_vips_messages_enable(int on) { __atomic_store_n(&enabled, on ? 1 : 0, __ATOMIC_RELEASE); }

int jm_vips_messages_enabled(void) { return is_enabled(); }

int jm_vips_messages_active(void) {
    ensure_real();
    return dlsym(RTLD_DEFAULT, "vips_verror") == (void *) vips_verror
        && dlsym(RTLD_DEFAULT, "vips_threadpool_run") == (void *) vips_threadpool_run
        && dlsym(RTLD_DEFAULT, "vips_sink_disc") == (void *) vips_sink_disc
        && real.verror && real.threadpool_run && real.sink_disc;
}


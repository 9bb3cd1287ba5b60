/* The "hand-written libvips C loop" peer of make bench (issue 6): for every input file,
 * one vips_thumbnail call per rendition (the default renditions: WebP q80 fitting 512×512
 * and JPEG q85 fitting 1600×1600, never enlarged), saved with metadata stripped, on N
 * threads that take files from a shared counter. libvips concurrency 1, operation cache
 * off: the same settings journal-media uses. Prints one line per file with its latency.
 *
 * usage: vips_loop OUTDIR THREADS FILE...
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vips/vips.h>

static char **files;
static int file_count;
static const char *outdir;
static int next_file;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double *latency;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int convert(const char *path, int index) {
    char target[4096];
    VipsImage *small = NULL, *large = NULL;
    if (vips_thumbnail(path, &small, 512, "height", 512, "size", VIPS_SIZE_DOWN, NULL)) return -1;
    snprintf(target, sizeof target, "%s/%d.thumbnail.webp", outdir, index);
    int failed = vips_webpsave(small, target, "Q", 80, "strip", TRUE, NULL);
    g_object_unref(small);
    if (failed) return -1;
    if (vips_thumbnail(path, &large, 1600, "height", 1600, "size", VIPS_SIZE_DOWN, NULL)) return -1;
    snprintf(target, sizeof target, "%s/%d.fallback.jpg", outdir, index);
    failed = vips_jpegsave(large, target, "Q", 85, "strip", TRUE, NULL);
    g_object_unref(large);
    return failed ? -1 : 0;
}

static void *worker(void *unused) {
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&lock);
        int index = next_file++;
        pthread_mutex_unlock(&lock);
        if (index >= file_count) return NULL;
        double start = now();
        if (convert(files[index], index)) {
            fprintf(stderr, "%s: %s\n", files[index], vips_error_buffer());
            vips_error_clear();
        }
        latency[index] = now() - start;
    }
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s OUTDIR THREADS FILE...\n", argv[0]);
        return 2;
    }
    if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    outdir = argv[1];
    int threads = atoi(argv[2]);
    files = argv + 3;
    file_count = argc - 3;
    latency = calloc(file_count, sizeof *latency);
    pthread_t ids[64];
    if (threads < 1 || threads > 64) threads = 1;
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, worker, NULL);
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    for (int i = 0; i < file_count; i++) printf("latency %.4f %s\n", latency[i], files[i]);
    vips_shutdown();
    return 0;
}

/* The per-asset CPU floor of make bench's real-photo classes (issue 19): for every file, the
 * steps the default renditions cannot avoid, each timed alone on one thread (process CPU
 * time, libvips concurrency 1, cache off, median of 3):
 *   decode at the best scale (JPEG: the libjpeg DCT scale that still covers the 1600 box;
 *   other formats: the full decode), then two resizes with libvips' bilinear kernel (cheaper
 *   than any resize that keeps quality, so this floor is below the true limit), the JPEG q85
 *   encode of the 1600 px fallback without Huffman optimisation (PNG, compression 6, when the
 *   source has alpha) and the WebP q80 effort 2 encode of the 512 px thumbnail.
 * Prints one line per file and a last line "limit MS_PER_ASSET decode resize encode".
 *
 * usage: limit FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vips/vips.h>

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double median3(double a, double b, double c) {
    if (a > b) { double t = a; a = b; b = t; }
    if (b > c) b = c;
    return a > b ? a : b;
}

static VipsImage *decode(const char *path, int *shrink_out) {
    VipsImage *header = vips_image_new_from_file(path, NULL);
    if (!header) return NULL;
    int w = header->Xsize, h = header->Ysize, shrink = 1;
    const char *loader = vips_foreign_find_load(path);
    if (loader && strstr(loader, "Jpeg")) {
        double scale = 1600.0 / (w > h ? w : h);
        for (int s = 8; s >= 2; s /= 2)
            if (scale < 1 && (w + s - 1) / s >= (int)(w * scale + 0.999) && (h + s - 1) / s >= (int)(h * scale + 0.999)) {
                shrink = s;
                break;
            }
    }
    g_object_unref(header);
    VipsImage *lazy = shrink > 1 ? vips_image_new_from_file(path, "shrink", shrink, NULL)
                                 : vips_image_new_from_file(path, NULL);
    if (!lazy) return NULL;
    VipsImage *memory = vips_image_copy_memory(lazy);
    g_object_unref(lazy);
    *shrink_out = shrink;
    return memory;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    double total_decode = 0, total_resize = 0, total_encode = 0;
    int files = 0;
    for (int f = 1; f < argc; f++) {
        double d[3], r[3], e[3];
        int ok = 1;
        for (int run = 0; run < 3 && ok; run++) {
            int shrink = 1;
            double start = cpu_ms();
            VipsImage *image = decode(argv[f], &shrink);
            if (!image) { ok = 0; vips_error_clear(); break; }
            d[run] = cpu_ms() - start;
            start = cpu_ms();
            double big = 1600.0 / (image->Xsize > image->Ysize ? image->Xsize : image->Ysize);
            VipsImage *fallback = NULL, *thumb = NULL, *t = NULL;
            if (big < 1) {
                vips_resize(image, &t, big, "kernel", VIPS_KERNEL_LINEAR, NULL);
                fallback = vips_image_copy_memory(t);
                g_object_unref(t);
            } else {
                fallback = image;
                g_object_ref(fallback);
            }
            double small = 512.0 / (fallback->Xsize > fallback->Ysize ? fallback->Xsize : fallback->Ysize);
            if (small < 1) {
                vips_resize(fallback, &t, small, "kernel", VIPS_KERNEL_LINEAR, NULL);
                thumb = vips_image_copy_memory(t);
                g_object_unref(t);
            } else {
                thumb = fallback;
                g_object_ref(thumb);
            }
            r[run] = cpu_ms() - start;
            start = cpu_ms();
            void *buffer;
            size_t length;
            if (vips_image_hasalpha(fallback))
                vips_pngsave_buffer(fallback, &buffer, &length, "compression", 6, "strip", TRUE, NULL);
            else
                vips_jpegsave_buffer(fallback, &buffer, &length, "Q", 85, "strip", TRUE, NULL);
            g_free(buffer);
            vips_webpsave_buffer(thumb, &buffer, &length, "Q", 80, "effort", 2, "strip", TRUE, NULL);
            g_free(buffer);
            e[run] = cpu_ms() - start;
            g_object_unref(thumb);
            g_object_unref(fallback);
            g_object_unref(image);
        }
        if (!ok) continue;
        double dm = median3(d[0], d[1], d[2]), rm = median3(r[0], r[1], r[2]), em = median3(e[0], e[1], e[2]);
        printf("file %.1f %.1f %.1f %s\n", dm, rm, em, argv[f]);
        total_decode += dm;
        total_resize += rm;
        total_encode += em;
        files++;
    }
    if (files)
        printf("limit %.1f %.1f %.1f %.1f\n", (total_decode + total_resize + total_encode) / files,
               total_decode / files, total_resize / files, total_encode / files);
    vips_shutdown();
    return 0;
}

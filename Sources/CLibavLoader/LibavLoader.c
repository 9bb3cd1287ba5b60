// Every libav function the toolkit calls, defined here with libav's own prototype (the headers
// are included, so the compiler checks each definition against the real declaration) and
// forwarded to the library opened with dlopen on first use. See CLibavLoader.h for why, when
// and what it costs.
#define _GNU_SOURCE
#include "CLibavLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

// Hidden: the program must not export these names, or the libraries, once loaded, would bind
// their calls to each other (libavformat → libavutil) to these forwarders instead.
#pragma GCC visibility push(hidden)
#include <libavcodec/avcodec.h>
#include <libavcodec/dv_profile.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// FUNC(library, return type, name, (parameters), (arguments)); VOID(library, name, (parameters),
// (arguments)) for functions returning nothing. Sorted by library, then name. A function the
// Swift code starts calling must be added here, or the program fails to link (undefined symbol).
#define JM_LIBAV_FUNCTIONS(FUNC, VOID) \
    FUNC(AVUTIL, int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src)) \
    VOID(AVUTIL, av_channel_layout_default, (AVChannelLayout *ch_layout, int nb_channels), \
        (ch_layout, nb_channels)) \
    FUNC(AVUTIL, const char *, av_color_primaries_name, (enum AVColorPrimaries primaries), (primaries)) \
    FUNC(AVUTIL, const char *, av_color_range_name, (enum AVColorRange range), (range)) \
    FUNC(AVUTIL, const char *, av_color_space_name, (enum AVColorSpace space), (space)) \
    FUNC(AVUTIL, const char *, av_color_transfer_name, (enum AVColorTransferCharacteristic transfer), (transfer)) \
    FUNC(AVUTIL, AVContentLightMetadata *, av_content_light_metadata_create_side_data, (AVFrame *frame), (frame)) \
    VOID(AVUTIL, av_dict_free, (AVDictionary **m), (m)) \
    FUNC(AVUTIL, AVDictionaryEntry *, av_dict_get, \
        (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), \
        (m, key, prev, flags)) \
    FUNC(AVUTIL, int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags), \
        (pm, key, value, flags)) \
    FUNC(AVUTIL, double, av_display_rotation_get, (const int32_t matrix[9]), (matrix)) \
    FUNC(AVUTIL, AVFrame *, av_frame_alloc, (void), ()) \
    FUNC(AVUTIL, int, av_frame_apply_cropping, (AVFrame *frame, int flags), (frame, flags)) \
    VOID(AVUTIL, av_frame_free, (AVFrame **frame), (frame)) \
    FUNC(AVUTIL, int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align)) \
    FUNC(AVUTIL, AVFrameSideData *, av_frame_get_side_data, (const AVFrame *frame, enum AVFrameSideDataType type), \
        (frame, type)) \
    VOID(AVUTIL, av_frame_unref, (AVFrame *frame), (frame)) \
    VOID(AVUTIL, av_free, (void *ptr), (ptr)) \
    VOID(AVUTIL, av_freep, (void *ptr), (ptr)) \
    FUNC(AVUTIL, const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    FUNC(AVUTIL, int, av_log_format_line2, \
        (void *ptr, int level, const char *fmt, va_list vl, char *line, int line_size, int *print_prefix), \
        (ptr, level, fmt, vl, line, line_size, print_prefix)) \
    FUNC(AVUTIL, int, av_log_get_level, (void), ()) \
    VOID(AVUTIL, av_log_set_callback, (void (*callback)(void*, int, const char*, va_list)), (callback)) \
    VOID(AVUTIL, av_log_set_level, (int level), (level)) \
    FUNC(AVUTIL, void *, av_malloc, (size_t size), (size)) \
    FUNC(AVUTIL, void *, av_mallocz, (size_t size), (size)) \
    FUNC(AVUTIL, const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    FUNC(AVUTIL, int, av_sample_fmt_is_planar, (enum AVSampleFormat sample_fmt), (sample_fmt)) \
    FUNC(AVUTIL, char *, av_strdup, (const char *s), (s)) \
    FUNC(AVUTIL, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size)) \
    FUNC(AVCODEC, const AVDVProfile *, av_dv_frame_profile, \
        (const AVDVProfile *sys, const uint8_t *frame, unsigned buf_size), \
        (sys, frame, buf_size)) \
    FUNC(AVCODEC, int, av_new_packet, (AVPacket *pkt, int size), (pkt, size)) \
    FUNC(AVCODEC, AVPacket *, av_packet_alloc, (void), ()) \
    VOID(AVCODEC, av_packet_free, (AVPacket **pkt), (pkt)) \
    VOID(AVCODEC, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), \
        (pkt, tb_src, tb_dst)) \
    VOID(AVCODEC, av_packet_unref, (AVPacket *pkt), (pkt)) \
    FUNC(AVCODEC, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    FUNC(AVCODEC, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id)) \
    FUNC(AVCODEC, const AVCodec *, avcodec_find_decoder_by_name, (const char *name), (name)) \
    FUNC(AVCODEC, const AVCodec *, avcodec_find_encoder, (enum AVCodecID id), (id)) \
    FUNC(AVCODEC, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name)) \
    VOID(AVCODEC, avcodec_flush_buffers, (AVCodecContext *avctx), (avctx)) \
    VOID(AVCODEC, avcodec_free_context, (AVCodecContext **avctx), (avctx)) \
    FUNC(AVCODEC, const char *, avcodec_get_name, (enum AVCodecID id), (id)) \
    FUNC(AVCODEC, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), \
        (avctx, codec, options)) \
    FUNC(AVCODEC, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec), \
        (par, codec)) \
    FUNC(AVCODEC, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par), \
        (codec, par)) \
    FUNC(AVCODEC, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame)) \
    FUNC(AVCODEC, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt)) \
    FUNC(AVCODEC, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame)) \
    FUNC(AVCODEC, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt)) \
    FUNC(AVCODEC, unsigned, avcodec_version, (void), ()) \
    FUNC(AVFORMAT, int, av_find_best_stream, \
        (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, \
         const AVCodec **decoder_ret, int flags), \
        (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags)) \
    FUNC(AVFORMAT, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    FUNC(AVFORMAT, const AVInputFormat *, av_probe_input_format3, \
        (const AVProbeData *pd, int is_opened, int *score_ret), \
        (pd, is_opened, score_ret)) \
    FUNC(AVFORMAT, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    FUNC(AVFORMAT, int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags), \
        (s, stream_index, timestamp, flags)) \
    FUNC(AVFORMAT, uint8_t *, av_stream_get_side_data, \
        (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), \
        (stream, type, size)) \
    FUNC(AVFORMAT, int, av_write_trailer, (AVFormatContext *s), (s)) \
    FUNC(AVFORMAT, AVFormatContext *, avformat_alloc_context, (void), ()) \
    FUNC(AVFORMAT, int, avformat_alloc_output_context2, \
        (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename), \
        (ctx, oformat, format_name, filename)) \
    VOID(AVFORMAT, avformat_close_input, (AVFormatContext **s), (s)) \
    FUNC(AVFORMAT, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options)) \
    VOID(AVFORMAT, avformat_free_context, (AVFormatContext *s), (s)) \
    FUNC(AVFORMAT, int, avformat_index_get_entries_count, (const AVStream *st), (st)) \
    FUNC(AVFORMAT, const AVIndexEntry *, avformat_index_get_entry, (AVStream *st, int idx), (st, idx)) \
    FUNC(AVFORMAT, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c)) \
    FUNC(AVFORMAT, int, avformat_open_input, \
        (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), \
        (ps, url, fmt, options)) \
    FUNC(AVFORMAT, unsigned, avformat_version, (void), ()) \
    FUNC(AVFORMAT, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options)) \
    FUNC(AVFORMAT, AVIOContext *, avio_alloc_context, \
        (unsigned char *buffer, int buffer_size, int write_flag, void *opaque, \
         int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), \
         int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), \
         int64_t (*seek)(void *opaque, int64_t offset, int whence)), \
        (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek)) \
    VOID(AVFORMAT, avio_context_free, (AVIOContext **s), (s)) \
    VOID(AVFORMAT, avio_flush, (AVIOContext *s), (s)) \
    FUNC(AVFORMAT, int64_t, avio_size, (AVIOContext *s), (s)) \
    VOID(SWSCALE, sws_freeContext, (struct SwsContext *swsContext), (swsContext)) \
    FUNC(SWSCALE, struct SwsContext *, sws_getCachedContext, \
        (struct SwsContext *context, int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, \
         enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), \
        (context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    FUNC(SWSCALE, const int *, sws_getCoefficients, (int colorspace), (colorspace)) \
    FUNC(SWSCALE, struct SwsContext *, sws_getContext, \
        (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, \
         int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), \
        (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    FUNC(SWSCALE, int, sws_scale, \
        (struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY, \
         int srcSliceH, uint8_t *const dst[], const int dstStride[]), \
        (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride)) \
    FUNC(SWSCALE, int, sws_setColorspaceDetails, \
        (struct SwsContext *c, const int inv_table[4], int srcRange, const int table[4], int dstRange, \
         int brightness, int contrast, int saturation), \
        (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation)) \
    FUNC(SWSCALE, unsigned, swscale_version, (void), ()) \
    FUNC(AVFILTER, int, av_buffersink_get_frame, (AVFilterContext *ctx, AVFrame *frame), (ctx, frame)) \
    FUNC(AVFILTER, int, av_buffersrc_add_frame_flags, (AVFilterContext *buffer_src, AVFrame *frame, int flags), \
        (buffer_src, frame, flags)) \
    FUNC(AVFILTER, const AVFilter *, avfilter_get_by_name, (const char *name), (name)) \
    FUNC(AVFILTER, AVFilterGraph *, avfilter_graph_alloc, (void), ()) \
    FUNC(AVFILTER, int, avfilter_graph_config, (AVFilterGraph *graphctx, void *log_ctx), (graphctx, log_ctx)) \
    FUNC(AVFILTER, int, avfilter_graph_create_filter, \
        (AVFilterContext **filt_ctx, const AVFilter *filt, const char *name, const char *args, void *opaque, \
         AVFilterGraph *graph_ctx), \
        (filt_ctx, filt, name, args, opaque, graph_ctx)) \
    VOID(AVFILTER, avfilter_graph_free, (AVFilterGraph **graph), (graph)) \
    FUNC(AVFILTER, int, avfilter_graph_parse_ptr, \
        (AVFilterGraph *graph, const char *filters, AVFilterInOut **inputs, AVFilterInOut **outputs, void *log_ctx), \
        (graph, filters, inputs, outputs, log_ctx)) \
    FUNC(AVFILTER, AVFilterInOut *, avfilter_inout_alloc, (void), ()) \
    VOID(AVFILTER, avfilter_inout_free, (AVFilterInOut **inout), (inout))

#define JM_STRING(x) #x
#define JM_SONAME(base, major) base ".so." JM_STRING(major)

static const char *const jm_sonames[] = {
    [JM_LIBAVUTIL] = JM_SONAME("libavutil", LIBAVUTIL_VERSION_MAJOR),
    [JM_LIBAVCODEC] = JM_SONAME("libavcodec", LIBAVCODEC_VERSION_MAJOR),
    [JM_LIBAVFORMAT] = JM_SONAME("libavformat", LIBAVFORMAT_VERSION_MAJOR),
    [JM_LIBSWSCALE] = JM_SONAME("libswscale", LIBSWSCALE_VERSION_MAJOR),
    [JM_LIBAVFILTER] = JM_SONAME("libavfilter", LIBAVFILTER_VERSION_MAJOR),
};

#define JM_LIBRARY_COUNT 5
#define JM_BIT(library) (1u << (library))

// The libraries each one needs loaded first, as bits, from its NEEDED entries (readelf -d);
// a dependency always comes earlier in the enum. libavfilter also needs libswresample and
// libpostproc, which nothing else calls: its own dlopen brings those.
static const unsigned jm_dependencies[JM_LIBRARY_COUNT] = {
    [JM_LIBAVUTIL] = 0,
    [JM_LIBAVCODEC] = JM_BIT(JM_LIBAVUTIL),
    [JM_LIBAVFORMAT] = JM_BIT(JM_LIBAVCODEC) | JM_BIT(JM_LIBAVUTIL),
    [JM_LIBSWSCALE] = JM_BIT(JM_LIBAVUTIL),
    [JM_LIBAVFILTER] = JM_BIT(JM_LIBAVFORMAT) | JM_BIT(JM_LIBAVCODEC) | JM_BIT(JM_LIBSWSCALE) | JM_BIT(JM_LIBAVUTIL),
};

#define JM_INDEX_FUNC(library, type, name, parameters, arguments) JM_INDEX_##name,
#define JM_INDEX_VOID(library, name, parameters, arguments) JM_INDEX_##name,
enum { JM_LIBAV_FUNCTIONS(JM_INDEX_FUNC, JM_INDEX_VOID) JM_FUNCTION_COUNT };

#define JM_ENTRY_FUNC(library, type, name, parameters, arguments) {JM_LIB##library, #name},
#define JM_ENTRY_VOID(library, name, parameters, arguments) {JM_LIB##library, #name},
static const struct {
    jm_libav_library library;
    const char *name;
} jm_functions[JM_FUNCTION_COUNT] = {JM_LIBAV_FUNCTIONS(JM_ENTRY_FUNC, JM_ENTRY_VOID)};

enum { JM_UNTRIED = 0, JM_LOADED = 1, JM_FAILED = 2 };

// Written under jm_lock before the release store of the library's state; read after an
// acquire load that saw JM_LOADED (pointers) or JM_FAILED (error text), so never torn.
static void *jm_pointers[JM_FUNCTION_COUNT];
static char jm_errors[JM_LIBRARY_COUNT][512];
static _Atomic int jm_states[JM_LIBRARY_COUNT];
static pthread_mutex_t jm_lock = PTHREAD_MUTEX_INITIALIZER;

static int jm_load_locked(jm_libav_library library) {
    int state = atomic_load_explicit(&jm_states[library], memory_order_relaxed);
    if (state != JM_UNTRIED) return state;
    for (int dependency = 0; dependency < (int)library && state == JM_UNTRIED; dependency++) {
        if (!(jm_dependencies[library] & JM_BIT(dependency)) || jm_load_locked((jm_libav_library)dependency) == JM_LOADED) continue;
        snprintf(jm_errors[library], sizeof jm_errors[library], "%s", jm_errors[dependency]);
        state = JM_FAILED;
    }
    if (state == JM_UNTRIED) {
        // RTLD_LOCAL: the names stay out of the global scope; a library opened later finds
        // the ones already loaded through its own dependencies (the same objects, by soname).
        void *handle = dlopen(jm_sonames[library], RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(jm_errors[library], sizeof jm_errors[library], "%s could not be loaded: %s",
                     jm_sonames[library], reason ? reason : "unknown error");
            state = JM_FAILED;
        } else {
            state = JM_LOADED;
            for (int index = 0; index < JM_FUNCTION_COUNT && state == JM_LOADED; index++) {
                if (jm_functions[index].library != library) continue;
                void *address = dlsym(handle, jm_functions[index].name);
                if (address == NULL) {
                    snprintf(jm_errors[library], sizeof jm_errors[library], "%s has no %s",
                             jm_sonames[library], jm_functions[index].name);
                    state = JM_FAILED;
                }
                jm_pointers[index] = address;
            }
            // The handle is kept even on failure: a library cannot be unloaded safely once its
            // initialisers ran, and the failure is final for the process.
        }
    }
    atomic_store_explicit(&jm_states[library], state, memory_order_release);
    return state;
}

int jm_libav_require(jm_libav_library library) {
    if ((unsigned)library >= JM_LIBRARY_COUNT) return -1;
    int state = atomic_load_explicit(&jm_states[library], memory_order_acquire);
    if (state == JM_UNTRIED) {
        pthread_mutex_lock(&jm_lock);
        state = jm_load_locked(library);
        pthread_mutex_unlock(&jm_lock);
    }
    return state == JM_LOADED ? 0 : -1;
}

const char *jm_libav_load_error(jm_libav_library library) {
    if ((unsigned)library >= JM_LIBRARY_COUNT) return NULL;
    return atomic_load_explicit(&jm_states[library], memory_order_acquire) == JM_FAILED ? jm_errors[library] : NULL;
}

const char *jm_libav_soname(jm_libav_library library) {
    return (unsigned)library < JM_LIBRARY_COUNT ? jm_sonames[library] : NULL;
}

// A forwarder reached before its library was required loads it here; when that fails there is
// no typed way out of a libav call, so it says which library and function, and aborts.
__attribute__((noinline, cold)) static void jm_load_or_abort(jm_libav_library library, int index) {
    if (jm_libav_require(library) == 0) return;
    fprintf(stderr, "journal-media: %s was called but %s\n", jm_functions[index].name,
            jm_libav_load_error(library));
    abort();
}

static inline void *jm_address(jm_libav_library library, int index) {
    if (__builtin_expect(atomic_load_explicit(&jm_states[library], memory_order_acquire) != JM_LOADED, 0)) {
        jm_load_or_abort(library, index);
    }
    return jm_pointers[index];
}

#define JM_DEFINE_FUNC(library, type, name, parameters, arguments) \
    type name parameters { \
        typedef type(*jm_function) parameters; \
        return ((jm_function)jm_address(JM_LIB##library, JM_INDEX_##name)) arguments; \
    }
#define JM_DEFINE_VOID(library, name, parameters, arguments) \
    void name parameters { \
        typedef void(*jm_function) parameters; \
        ((jm_function)jm_address(JM_LIB##library, JM_INDEX_##name)) arguments; \
    }
JM_LIBAV_FUNCTIONS(JM_DEFINE_FUNC, JM_DEFINE_VOID)

#pragma GCC visibility pop

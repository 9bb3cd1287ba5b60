// The headers of libavformat, libavcodec, libavutil and libswscale (ffmpeg 5.1 on Debian 12) for
// Swift, plus libavfilter's. None is linked: CLibavLoader opens each on first use.
#ifndef JOURNALMEDIA_CFFMPEG_SHIM_H
#define JOURNALMEDIA_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/dv_profile.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// AVERROR(e), AVERROR_EOF and AV_NOPTS_VALUE are macros Swift cannot import.
static inline int jm_averror_eof(void) { return AVERROR_EOF; }
static inline int jm_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int64_t jm_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int jm_averror_exit(void) { return AVERROR_EXIT; }
static inline int jm_averror(int posix_error) { return AVERROR(posix_error); }

// A custom-I/O open may not reach any other resource (MOV external references, nested
// playlists): every secondary open is refused.
static inline int jm_refuse_io_open(struct AVFormatContext *s, AVIOContext **pb, const char *url, int flags,
                                    AVDictionary **options) {
    (void)s; (void)pb; (void)url; (void)flags; (void)options;
    return AVERROR(EPERM);
}
static inline void jm_refuse_secondary_opens(AVFormatContext *context) { context->io_open = jm_refuse_io_open; }

#endif

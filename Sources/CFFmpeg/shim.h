// libavformat, libavcodec, libavutil and libswscale (ffmpeg 5.1 on Debian 12) for Swift.
#ifndef JOURNALMEDIA_CFFMPEG_SHIM_H
#define JOURNALMEDIA_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

// AVERROR(e) and AVERROR_EOF are macros Swift cannot import.
static inline int jm_averror_eof(void) { return AVERROR_EOF; }
static inline int jm_averror_eagain(void) { return AVERROR(EAGAIN); }

#endif

#!/usr/bin/env bash
# Re-creates issue 17's FLV, MXF and raw ADTS AAC samples in Samples/ with the ffmpeg
# command line (Debian 12: ffmpeg 5.1 with libx264). The movies show the sample scene
# (Tests/SampleMaker/scene.py: corner markers red top-left, blue top-right, green bottom-left,
# white bottom-right) at 192×144, as in make-video-container-samples.sh. The samples are
# committed; this script documents how they were made and is not run by the build.
# Needs: ffmpeg, python3-numpy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
python3 "$here/scene.py" "$work/scene.ppm" 192 144 3

# video-h264.flv: H.264 (libx264) in FLV ("FLV", version 1), 1 s at 15 fps, no audio.
ff -loop 1 -framerate 15 -t 1 -i "$work/scene.ppm" -c:v libx264 -pix_fmt yuv420p -crf 30 -g 15 \
   -x264-params no-info=1 -map_metadata -1 -fflags +bitexact -f flv "$out/video-h264.flv"

# video-mpeg2.mxf: MPEG-2 video in MXF OP1a (ffmpeg's mxf muxer: SMPTE partition pack key
# 06 0E 2B 34 02 05 01 01 0D 01 02 01 01 …), 1 s at 25 fps (the muxer wants a broadcast rate),
# intra-only at a high qscale to stay small.
ff -loop 1 -framerate 25 -t 1 -i "$work/scene.ppm" -c:v mpeg2video -pix_fmt yuv420p -q:v 12 -g 1 \
   -map_metadata -1 -fflags +bitexact -f mxf "$out/video-mpeg2.mxf"

# audio-tone.aac: 1 s of a 440 Hz tone as raw ADTS AAC (no container, no tags, no picture):
# an audio file without cover art, which fails with reason noArtwork.
ff -f lavfi -i "sine=frequency=440:sample_rate=22050:duration=1" -af volume=0.2 -c:a aac -b:a 24k -ac 1 \
   -map_metadata -1 -fflags +bitexact -f adts "$out/audio-tone.aac"

# limits/video-sorenson.flv: Sorenson Spark (ffmpeg's flv encoder, FLV's old H.263 variant),
# 32×24, 0.2 s: an admitted container holding a codec that is NOT on the decoder allow-list.
ff -f lavfi -i "testsrc=size=32x24:rate=10:duration=0.2" -c:v flv -map_metadata -1 -fflags +bitexact \
   "$out/limits/video-sorenson.flv"

#!/usr/bin/env bash
# Re-creates the samples of issue 17's second video round in Samples/: an AVCHD recording
# date inside the H.264 stream, Matroska/WebM rotation, a short transport stream, DV, WAV and
# AIFF. Real encoders (Debian 12's ffmpeg 5.1) drawing the sample scene (Tests/SampleMaker/
# scene.py: corner markers red top-left, blue top-right, green bottom-left, white
# bottom-right). The samples are committed; this script documents how they were made and is
# not run by the build. Needs: ffmpeg, mkvtoolnix, python3-numpy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
python3 "$here/scene.py" "$work/scene.ppm" 192 144 5

# video-avchd-mdpm.mts: H.264 in a BDAV (192-byte packet) transport stream, 1 s, whose IDR
# access units carry an MDPM SEI recording date 2019:07:14 18:05:09, zone byte 0x27
# (sign bit 0x20, hours 3 in bits 1-4, half-hour bit 0x01: −03:30, no DST).
ff -loop 1 -framerate 15 -t 1 -i "$work/scene.ppm" -c:v libx264 -pix_fmt yuv420p -crf 32 -g 15 -bf 0 \
   -x264-params no-info=1 -bsf:v h264_mp4toannexb -f h264 "$work/plain.h264"
python3 "$here/avchd_mdpm.py" "$work/plain.h264" "$work/dated.h264" 0x27 "2019:07:14 18:05:09"
ff -fflags +genpts -r 15 -i "$work/dated.h264" -c copy -map_metadata -1 -f mpegts -mpegts_m2ts_mode 1 \
   "$out/video-avchd-mdpm.mts"
#   grep -c MDPM Samples/video-avchd-mdpm.mts → 1 (one IDR access unit); journal-media inspect → h264.DateTimeOriginal

# video-roll-90.webm: VP9 in WebM, 1 s, the scene stored turned 90° anticlockwise (transpose=2)
# with Video/Projection ProjectionType 0 (rectangular) and ProjectionPoseRoll −90, written by
# mkvpropedit (mkvtoolnix): libavformat 5.1 gives it a display matrix (ffprobe rotation=-90),
# and `ffmpeg -i … out.png` (autorotate) shows the scene upright.
ff -loop 1 -framerate 15 -t 1 -i "$work/scene.ppm" -vf transpose=2 -c:v libvpx-vp9 -crf 40 -b:v 0 -g 15 \
   -deadline good -cpu-used 4 -pix_fmt yuv420p -map_metadata -1 "$out/video-roll-90.webm"
mkvpropedit -q "$out/video-roll-90.webm" --edit track:v1 --set projection-type=0 --set projection-pose-roll=-90

# video-rotate-tag.mkv: H.264 in Matroska, 1 s, the scene stored turned 90° anticlockwise,
# with a track tag ROTATE=90 (clockwise degrees, as older ffmpeg and phone apps wrote) and no
# projection: libavformat 5.1 gives no display matrix, only the stream tag.
ff -loop 1 -framerate 15 -t 1 -i "$work/scene.ppm" -vf transpose=2 -c:v libx264 -crf 32 -g 15 \
   -x264-params no-info=1 -pix_fmt yuv420p -map_metadata -1 "$out/video-rotate-tag.mkv"
cat > "$work/tags.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<Tags>
  <Tag>
    <Targets><TargetTypeValue>50</TargetTypeValue></Targets>
    <Simple><Name>ROTATE</Name><String>90</String></Simple>
  </Tag>
</Tags>
XML
mkvpropedit -q "$out/video-rotate-tag.mkv" --tags "track:v1:$work/tags.xml"
#   ffprobe -v error -show_streams Samples/video-rotate-tag.mkv | grep ROTATE → TAG:ROTATE=90

# video-dv.dv: made by make-recording-date-samples.sh (it carries a recording date).

# audio-cover.aiff: 1 s of 16-bit PCM in AIFF with an ID3 chunk holding a title, an artist and
# a 240×240 JPEG cover (APIC), as iTunes and ffmpeg write it.
python3 "$here/scene.py" "$work/cover.ppm" 240 240 7
vips jpegsave "$work/cover.ppm" "$work/cover.jpg" --Q 70 --strip
ff -f lavfi -i "sine=frequency=330:sample_rate=8000:duration=1" -i "$work/cover.jpg" -map 0 -map 1 \
   -c:a pcm_s16be -c:v copy -disposition:v attached_pic -write_id3v2 1 -map_metadata -1 \
   -metadata title="Cover test" -metadata artist="JournalMedia" "$out/audio-cover.aiff"

# audio-voice.wav: 1 s of 8 kHz 16-bit mono PCM in WAV, no tags and no picture (a voice memo).
ff -f lavfi -i "sine=frequency=220:sample_rate=8000:duration=1" -af volume=0.2 -c:a pcm_s16le \
   -map_metadata -1 -fflags +bitexact "$out/audio-voice.wav"

# video-short.ts: a 1.2 s H.264 clip with a single keyframe (GOP longer than the clip) and 2 s
# of AAC, in a plain 188-byte transport stream. The poster's first seek (0.2 s) is a timestamp
# search that lands on the frame after the keyframe, and every later candidate lies past it.
ff -loop 1 -framerate 15 -t 1.2 -i "$work/scene.ppm" -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=2" \
   -c:v libx264 -pix_fmt yuv420p -crf 32 -g 100 -x264-params no-info=1 -c:a aac -b:a 16k -ac 1 \
   -map_metadata -1 -f mpegts "$out/video-short.ts"

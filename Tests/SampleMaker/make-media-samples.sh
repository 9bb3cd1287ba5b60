#!/usr/bin/env bash
# Re-creates the video, Live Photo and audio samples in Samples/ with real encoders
# (libx264, libx265, libmp3lame, ffmpeg's AAC, libjpeg through vips) driven by the ffmpeg and
# vips command-line tools; the Live Photo EXIF and Apple MakerNote are written byte by byte by
# live_exif.py. The samples are committed; this script documents how they were made and is
# not run by the build. Needs: ffmpeg (Debian 12: 5.1, with zscale), libvips-tools,
# libimage-exiftool-perl, python3-numpy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out/live"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
# Deterministic output: no encoder version string, no creation time unless set below.
x264=(-c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p -x264-params "no-info=1")

# The scene of the image samples (Tests/SampleMaker/scene.py): corner markers red top-left,
# blue top-right, green bottom-left, white bottom-right (60×60 at these sizes).
python3 "$here/scene.py" "$work/scene.ppm" 320 180
python3 "$here/scene.py" "$work/scene2.ppm" 320 180 2
python3 "$here/scene.py" "$work/still.ppm" 400 300 1

# 1. video-rotated-90.mp4: H.264 + AAC, 2 s at 30 fps. The stored frames are the scene turned
#    90° anticlockwise (180×320, transpose=2); the track header's matrix says "rotate 90°
#    clockwise to display", so the upright display is the marker layout at 320×180.
#    ffmpeg 5.1's mov muxer ignores a `rotate` stream tag (and has no -display_rotation), so
#    the matrix is written by exiftool (QuickTime Rotation, degrees clockwise). ffprobe reports
#    it as "rotation of -90.00 degrees" (av_display_rotation_get is anticlockwise).
ff -loop 1 -framerate 30 -t 2 -i "$work/scene.ppm" \
   -f lavfi -i "sine=frequency=440:sample_rate=22050:duration=2" \
   -vf "transpose=2" "${x264[@]}" -crf 28 -g 30 \
   -af "volume=0.1" -c:a aac -b:a 24k -ac 1 \
   -map_metadata -1 -shortest "$out/video-rotated-90.mp4"
exiftool -q -overwrite_original -Rotation=90 "$out/video-rotated-90.mp4"
#   ffprobe -v error -select_streams v:0 -show_entries stream=width,height:stream_side_data=rotation -of compact Samples/video-rotated-90.mp4
#     → width=180|height=320|rotation=-90
#   ffmpeg -i Samples/video-rotated-90.mp4 -frames:v 1 /tmp/upright.png   (autorotate: 320×180, red top-left)

# 2. video-hdr-hlg.mov: HEVC Main 10 (libx265, yuv420p10le), 1.5 s at 24 fps, tagged BT.2020 /
#    arib-std-b67 (HLG) / BT.2020 non-constant luminance / limited range. The sRGB scene is
#    converted into HLG with zscale (SDR white at HLG's reference level), so a correct
#    tone-map back shows the scene's colours, and treating it as BT.709 shows them washed out.
ff -loop 1 -framerate 24 -t 1.5 -i "$work/scene2.ppm" \
   -vf "zscale=rangein=full:primariesin=709:transferin=iec61966-2-1:matrixin=709:primaries=2020:transfer=arib-std-b67:matrix=2020_ncl:range=limited:npl=203,format=yuv420p10le" \
   -c:v libx265 -preset medium -crf 26 -tag:v hvc1 \
   -x265-params "log-level=error:info=0:keyint=24:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:range=limited" \
   -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -color_range tv \
   -map_metadata -1 "$out/video-hdr-hlg.mov"
#   ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,pix_fmt,color_range,color_space,color_transfer,color_primaries -of compact Samples/video-hdr-hlg.mov
#     → codec_name=hevc|pix_fmt=yuv420p10le|color_range=tv|color_space=bt2020nc|color_transfer=arib-std-b67|color_primaries=bt2020

# 2b. video-hdr-pq-dci-p3.mov: the same scene as PQ (smpte2084) in DCI-P3 primaries (smpte431),
#    BT.2020 non-constant-luminance matrix, limited range, HEVC Main 10, 0.5 s at 24 fps. No table
#    tone curve covers DCI-P3, so its poster is the one sample that takes libavfilter's graph
#    (HDRFilterGraphToneMapper) in a plain convert, and the one that loads libavfilter.
ff -loop 1 -framerate 24 -t 0.5 -i "$work/scene2.ppm" \
   -vf "zscale=rangein=full:primariesin=709:transferin=iec61966-2-1:matrixin=709:primaries=smpte431:transfer=smpte2084:matrix=2020_ncl:range=limited:npl=203,format=yuv420p10le" \
   -c:v libx265 -preset medium -crf 26 -tag:v hvc1 \
   -x265-params "log-level=error:info=0:keyint=24:colorprim=smpte431:transfer=smpte2084:colormatrix=bt2020nc:range=limited" \
   -color_primaries smpte431 -color_trc smpte2084 -colorspace bt2020nc -color_range tv \
   -map_metadata -1 "$out/video-hdr-pq-dci-p3.mov"
#   ffprobe … Samples/video-hdr-pq-dci-p3.mov
#     → codec_name=hevc|pix_fmt=yuv420p10le|color_range=tv|color_space=bt2020nc|color_transfer=smpte2084|color_primaries=smpte431

# 3. video-black-start.mp4: H.264, no audio, 1.5 s of black then 1.5 s of the scene, keyframe
#    every second (x264 also puts one at the cut).
ff -f lavfi -i "color=c=black:s=320x180:r=30:d=1.5" -loop 1 -framerate 30 -t 1.5 -i "$work/scene.ppm" \
   -filter_complex "[0]format=yuv420p,setsar=1[b];[1]format=yuv420p,setsar=1[s];[b][s]concat=n=2:v=1:a=0" \
   "${x264[@]}" -crf 28 -g 30 -map_metadata -1 "$out/video-black-start.mp4"
#   ffprobe -v error -select_streams v:0 -skip_frame nokey -show_entries frame=pts_time -of csv Samples/video-black-start.mp4
#     → keyframes at 0, 1 (black) and 1.5 (content), 2.5

# 3b. video-open-gop.mp4: H.264 High with B-frames (3, pyramid) and open GOPs, 4 s at 30 fps,
#    a keyframe every second. Second 0–1 is the scene upright, seconds 1–4 the scene turned
#    180°, so a poster that lands on any keyframe but the one at 0 (the keyframe at or before
#    10 % of 4 s) shows the markers in the wrong corners. With reordering delay a decoder holds
#    the keyframe back; read on with non-key frames skipped it came out as the frame at 2 s.
ff -loop 1 -framerate 30 -t 1 -i "$work/scene.ppm" -loop 1 -framerate 30 -t 3 -i "$work/scene.ppm" \
   -filter_complex "[0]format=yuv420p,setsar=1[a];[1]hflip,vflip,format=yuv420p,setsar=1[b];[a][b]concat=n=2:v=1:a=0" \
   -c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p \
   -x264-params "no-info=1:open-gop=1:bframes=3:b-pyramid=normal:keyint=30:min-keyint=30:scenecut=0" \
   -crf 28 -map_metadata -1 "$out/video-open-gop.mp4"
#   ffprobe -v error -select_streams v -show_entries packet=pts_time,flags -of csv Samples/video-open-gop.mp4 | grep K
#     → keyframes at 0, 1, 2, 3

# 4. Live Photo pairs in Samples/live/. Each still is a baseline JPEG of the scene with a
#    hand-built EXIF block (live_exif.py); each video is a short QuickTime MOV.
#    IMG_0001: matching identifiers (MakerNote 0x0011 of the still == the MOV's
#              com.apple.quicktime.content.identifier key), HEVC 8-bit MOV 1.5 s with audio.
#    IMG_0002: no identifier in either file (pairs by folder + base name + video ≤ 4 s), 3 s.
#    IMG_0003: both carry identifiers, but different ones: must NOT pair.
uuid1=5F0E6A4C-2B1D-4E8A-9C3F-7A1B2C3D4E01
uuid3still=0C3B7E21-94D6-4F0A-8B52-1E2D3C4B5A03
uuid3video=D5A4C3B2-1F0E-4D9C-8B7A-6F5E4D3C2B13
vips jpegsave "$work/still.ppm" "$work/still.jpg" --Q 80 --strip
python3 "$here/live_exif.py" "$work/still.jpg" "$out/live/IMG_0001.JPG" "$uuid1"
python3 "$here/live_exif.py" "$work/still.jpg" "$out/live/IMG_0002.JPG"
python3 "$here/live_exif.py" "$work/still.jpg" "$out/live/IMG_0003.JPG" "$uuid3still"
live_mov() { # OUT DURATION CODEC-ARGS... [-- METADATA-ARGS...]
  local target=$1 duration=$2; shift 2
  ff -loop 1 -framerate 15 -t "$duration" -i "$work/still.ppm" \
     -f lavfi -i "sine=frequency=660:sample_rate=22050:duration=$duration" \
     -vf "scale=320:240" -af "volume=0.1" -c:a aac -b:a 24k -ac 1 -shortest \
     -map_metadata -1 -metadata creation_time=2024-06-01T07:30:00Z "$@" "$target"
}
live_mov "$out/live/IMG_0001.MOV" 1.5 -c:v libx265 -preset medium -crf 30 -pix_fmt yuv420p -tag:v hvc1 \
   -x265-params "log-level=error:info=0" \
   -movflags use_metadata_tags -metadata "com.apple.quicktime.content.identifier=$uuid1"
live_mov "$out/live/IMG_0002.MOV" 3 "${x264[@]}" -crf 30 -g 15
live_mov "$out/live/IMG_0003.MOV" 1.5 "${x264[@]}" -crf 30 -g 15 \
   -movflags use_metadata_tags -metadata "com.apple.quicktime.content.identifier=$uuid3video"
#   exiftool -G1 -MediaGroupUUID -ContentIdentifier Samples/live/
#     → IMG_0001.JPG [Apple] Media Group UUID 5F0E…4E01, IMG_0001.MOV [Keys] Content Identifier 5F0E…4E01,
#       IMG_0003.JPG 0C3B…5A03, IMG_0003.MOV D5A4…2B13, nothing for IMG_0002.*
#   ffprobe -v error -show_entries format_tags=com.apple.quicktime.content.identifier -of compact Samples/live/IMG_0001.MOV
#     → format|tag:com.apple.quicktime.content.identifier=5F0E6A4C-2B1D-4E8A-9C3F-7A1B2C3D4E01

# 5. Audio: 1.5 s quiet tone, mono, low bitrate.
#    song-cover.mp3: MP3 (LAME, 32 kb/s) + ID3v2.3 APIC front cover, a 160×160 JPEG.
#    song-cover.m4a: AAC-LC in M4A + "covr" artwork, a 160×160 PNG.
#    song-no-cover.mp3: the same MP3 without a picture.
vips thumbnail "$work/still.ppm" "$work/cover.jpg" 160 --height 160 --crop centre
vips copy "$work/cover.jpg" "$work/cover-big.png"
vips thumbnail "$work/cover-big.png" "$work/cover.png" 160 --height 160 --crop centre
ff -f lavfi -i "sine=frequency=523:sample_rate=22050:duration=1.5" -af "volume=0.1" "$work/tone.wav"
ff -i "$work/tone.wav" -i "$work/cover.jpg" -map 0:a -map 1:v -c:a libmp3lame -b:a 32k -ac 1 \
   -c:v copy -disposition:v:0 attached_pic -id3v2_version 3 \
   -metadata title="Sample tone" -metadata artist="JournalMedia" \
   -metadata:s:v title="Album cover" -metadata:s:v comment="Cover (front)" "$out/song-cover.mp3"
ff -i "$work/tone.wav" -i "$work/cover.png" -map 0:a -map 1:v -c:a aac -b:a 32k -ac 1 \
   -c:v copy -disposition:v:0 attached_pic -metadata title="Sample tone" "$out/song-cover.m4a"
ff -i "$work/tone.wav" -c:a libmp3lame -b:a 32k -ac 1 -id3v2_version 3 \
   -metadata title="Sample tone, no cover" "$out/song-no-cover.mp3"
#   ffprobe -v error -show_entries stream=index,codec_name:stream_disposition=attached_pic -of compact Samples/song-cover.mp3
#     → stream|index=0|codec_name=mp3|disposition:attached_pic=0, stream|index=1|codec_name=mjpeg|disposition:attached_pic=1
#   ffprobe … Samples/song-cover.m4a → aac + png with attached_pic=1; Samples/song-no-cover.mp3 → mp3 only

ls -l "$out"/video-* "$out"/song-* "$out"/live/

#!/usr/bin/env bash
# Re-creates the container/codec samples of issue 17 in Samples/ with real encoders driven
# by the ffmpeg command line (Debian 12: ffmpeg 5.1 with libx264, libx265, libvpx, libaom),
# plus an Android motion photo (a JPEG from vips + an H.264 MP4 appended, its XMP written by
# exiftool from a packet file). All show the sample scene (Tests/SampleMaker/scene.py:
# corner markers red top-left, blue top-right, green bottom-left, white bottom-right) at
# 192×144 (the motion photo's still 240×180), 15 fps. The samples are committed; this
# script documents how they were made and is not run by the build.
# Needs: ffmpeg, libvips-tools, libimage-exiftool-perl, python3-numpy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
python3 "$here/scene.py" "$work/scene.ppm" 192 144 3
python3 "$here/scene.py" "$work/still.ppm" 240 180 4
scene=(-loop 1 -framerate 15 -t 2 -i "$work/scene.ppm")

# video-mpeg4.avi: MPEG-4 Part 2 (ffmpeg's mpeg4 encoder, FourCC XVID), 2 s, no audio, in AVI.
ff "${scene[@]}" -c:v mpeg4 -vtag XVID -q:v 4 -g 15 -pix_fmt yuv420p -map_metadata -1 -fflags +bitexact \
   "$out/video-mpeg4.avi"

# video-h264.mts: H.264 + AAC in an AVCHD-style BDAV transport stream (192-byte packets:
# a 4-byte timestamp before each 188-byte TS packet), 2 s.
ff "${scene[@]}" -f lavfi -i "sine=frequency=440:sample_rate=22050:duration=2" \
   -c:v libx264 -pix_fmt yuv420p -crf 30 -g 15 -x264-params no-info=1 -af volume=0.1 -c:a aac -b:a 24k -ac 1 \
   -shortest -map_metadata -1 -f mpegts -mpegts_m2ts_mode 1 "$out/video-h264.mts"

# video-hevc.mkv: HEVC (libx265) in Matroska with a DateUTC (creation_time) of
# 2019-05-04 10:20:30 UTC, 2 s.
ff "${scene[@]}" -c:v libx265 -preset fast -crf 32 -pix_fmt yuv420p -x265-params "log-level=error:info=0:keyint=15" \
   -map_metadata -1 -metadata creation_time=2019-05-04T10:20:30Z "$out/video-hevc.mkv"

# video-vp9.webm: VP9 (libvpx-vp9) in WebM, 2 s.
ff "${scene[@]}" -c:v libvpx-vp9 -crf 40 -b:v 0 -g 15 -deadline good -cpu-used 4 -pix_fmt yuv420p \
   -map_metadata -1 "$out/video-vp9.webm"

# video-mjpeg.mov: Motion-JPEG in QuickTime, full-range 4:2:2 (yuvj422p, as cameras write it),
# 1.5 s, creation_time 2021-08-09 07:06:05 UTC.
ff -loop 1 -framerate 15 -t 1.5 -i "$work/scene.ppm" -c:v mjpeg -q:v 3 -pix_fmt yuvj422p \
   -map_metadata -1 -metadata creation_time=2021-08-09T07:06:05Z "$out/video-mjpeg.mov"

# video-av1.mp4: AV1 (libaom-av1) in MP4, 1 s.
ff -loop 1 -framerate 15 -t 1 -i "$work/scene.ppm" -c:v libaom-av1 -crf 45 -b:v 0 -cpu-used 8 -g 15 \
   -pix_fmt yuv420p -map_metadata -1 "$out/video-av1.mp4"

# limits/video-ffv1.mkv: FFV1 (lossless archival codec) in Matroska, 32×24, 0.2 s: an admitted
# container holding a codec that is NOT on the decoder allow-list.
ff -f lavfi -i "testsrc=size=32x24:rate=10:duration=0.2" -c:v ffv1 -map_metadata -1 "$out/limits/video-ffv1.mkv"

# video-motion-photo.jpg: an Android motion photo as Google's format describes it (and
# Samsung's One UI writes it): a JPEG whose XMP says GCamera:MotionPhoto=1 and lists a
# Container:Directory (Primary image/jpeg, then MotionPhoto video/mp4 with Item:Length = the
# MP4's size), with the MP4 appended after the JPEG's EOI. The still is the scene at 240×180;
# the embedded video is the 192×144 scene turned upside down (so a test can tell which is
# which), H.264, 1 s. exiftool 12.57 cannot write Container:Directory tag by tag, so the XMP
# packet is written from a file ("-XMP<=").
ff -loop 1 -framerate 15 -t 1 -i "$work/scene.ppm" -vf "hflip,vflip" -c:v libx264 -pix_fmt yuv420p -crf 32 -g 15 \
   -x264-params no-info=1 -map_metadata -1 -movflags +faststart "$work/motion.mp4"
vips jpegsave "$work/still.ppm" "$work/still.jpg" --Q 75 --strip
length=$(stat -c %s "$work/motion.mp4")
cat > "$work/motion.xmp" <<XMP
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
    xmlns:Container="http://ns.google.com/photos/1.0/container/"
    xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
    GCamera:MotionPhoto="1"
    GCamera:MotionPhotoVersion="1"
    GCamera:MotionPhotoPresentationTimestampUs="0">
   <Container:Directory>
    <rdf:Seq>
     <rdf:li rdf:parseType="Resource">
      <Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/>
     </rdf:li>
     <rdf:li rdf:parseType="Resource">
      <Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="$length" Item:Padding="0"/>
     </rdf:li>
    </rdf:Seq>
   </Container:Directory>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
XMP
exiftool -q -overwrite_original "-XMP<=$work/motion.xmp" -DateTimeOriginal="2022:03:04 05:06:07" \
   -OffsetTimeOriginal="+01:00" "$work/still.jpg"
cat "$work/still.jpg" "$work/motion.mp4" > "$out/video-motion-photo.jpg"
#   exiftool -G1 -a -XMP:all Samples/video-motion-photo.jpg → MotionPhoto 1, Directory items (…Length $length)
#   tail -c $length Samples/video-motion-photo.jpg | ffprobe -v error -show_entries stream=codec_name,width,height -of csv -
#     → stream,h264,192,144

ls -l "$out"/video-mpeg4.avi "$out"/video-h264.mts "$out"/video-hevc.mkv "$out"/video-vp9.webm \
      "$out"/video-mjpeg.mov "$out"/video-av1.mp4 "$out"/limits/video-ffv1.mkv "$out"/video-motion-photo.jpg

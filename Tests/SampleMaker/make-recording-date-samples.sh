#!/usr/bin/env bash
# Re-creates the recording-date samples read from the files' own structures (not libav's
# tags): a DV frame with the camcorder's REC DATE/TIME packs, and WAVs with a Broadcast Wave
# bext chunk and with a RIFF INFO ICRD date. All written by ffmpeg's muxers. The samples are
# committed; this script documents how they were made and is not run by the build.
# Needs: ffmpeg python3. Check with: exiftool -G1 -a -time:all FILE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
samples=${1:-$here/../../Samples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }

# video-dv.dv: one NTSC DV frame (ffmpeg's dvvideo encoder: 720×480, 4:1:1, 4:3, i.e. a sample
# aspect of 8:9), raw DIF as a tape transfer writes it: 120,000 bytes. The dv muxer writes
# creation_time into every DIF sequence's VAUX (and subcode) REC DATE/REC TIME packs:
#   exiftool -DateTimeOriginal Samples/video-dv.dv → 2009:07:14 10:20:30
python3 "$here/scene.py" "$work/scene720.ppm" 720 480 6
ff -i "$work/scene720.ppm" -frames:v 1 -r 30000/1001 -pix_fmt yuv411p -c:v dvvideo -aspect 4:3 \
   -metadata creation_time=2009-07-14T10:20:30 -f dv "$samples/video-dv.dv"

# dates/voice-bext.wav: 0.25 s of 8 kHz PCM with a bext chunk (OriginationDate/Time, as field
# recorders write them): exiftool → DateTimeOriginal 2021:03:04 05:06:07.
ff -f lavfi -i "sine=frequency=220:sample_rate=8000:duration=0.25" -af volume=0.2 -c:a pcm_s16le \
   -map_metadata -1 -fflags +bitexact -write_bext 1 \
   -metadata origination_date=2021-03-04 -metadata origination_time=05:06:07 "$samples/dates/voice-bext.wav"

# dates/voice-icrd.wav: the same with only a LIST/INFO ICRD date (date-only):
# exiftool → RIFF:DateCreated 2005:08:08.
ff -f lavfi -i "sine=frequency=220:sample_rate=8000:duration=0.25" -af volume=0.2 -c:a pcm_s16le \
   -fflags +bitexact -metadata date=2005-08-08 "$samples/dates/voice-icrd.wav"

#!/usr/bin/env bash
# Re-creates Samples/xmp/: XMP packets and the files that carry XMP or dates in places the
# plain EXIF walk does not look. The samples are committed; this script documents how they
# were made and is not run by the build. The expected dates in Tests (XMPPacketTests,
# MoreDateSourcesTests) are exiftool's readings of these files:
#   exiftool -G1 -a -n -time:all -Orientation FILE
# Needs: libvips-tools (with ImageMagick for PSD), libimage-exiftool-perl, ffmpeg (libx265),
# python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../Samples/xmp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out/packets" "$out/sidecars" "$out/hostile"
rm -f "$out"/*.* "$out"/packets/* "$out"/sidecars/* "$out"/hostile/*

python3 "$here/scene.py" "$work/scene.ppm" 48 32
vips copy "$work/scene.ppm" "$work/scene.png"
et() { exiftool -q -overwrite_original "$@"; }

# --- Six small valid XMP packets, each holding one capture date in one RDF form. -------
head='<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
tail=' </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>'
packet() { printf '%s\n%s\n%s\n' "$head" "$2" "$tail" > "$out/packets/$1"; }

# Attribute form with the conventional prefix (the substring reader got this one).
packet attribute.xmp '  <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"
    exif:DateTimeOriginal="2021-05-06T07:08:09+02:00"/>'
# Element form with simple text, old `xap` prefix of the xmp namespace (the substring
# reader got this one too).
packet element-xap.xmp '  <rdf:Description rdf:about="" xmlns:xap="http://ns.adobe.com/xap/1.0/">
   <xap:CreateDate>2012-03-04T05:06:07Z</xap:CreateDate>
  </rdf:Description>'
# The exif namespace bound to another prefix (`e:`), and a decoy `exif:` prefix bound to
# a namespace that is not EXIF's.
packet other-prefix.xmp '  <rdf:Description rdf:about="" xmlns:e="http://ns.adobe.com/exif/1.0/"
    xmlns:exif="http://example.com/not-exif/" exif:DateTimeOriginal="1999-01-01T00:00:00"
    e:DateTimeOriginal="2020-10-11T12:13:14.50-04:00"/>'
# Spaces around `=` (well-formed XML).
packet spaces-around-equals.xmp '  <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"
    exif:DateTimeOriginal = "2018-07-08T09:10:11+09:00"/>'
# Element form holding an array (rdf:Seq) with white space around the value.
packet element-seq.xmp '  <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/">
   <exif:DateTimeOriginal>
    <rdf:Seq>
     <rdf:li>
      2017-02-03T04:05:06+01:00
     </rdf:li>
     <rdf:li>2001-01-01T00:00:00</rdf:li>
    </rdf:Seq>
   </exif:DateTimeOriginal>
  </rdf:Description>'
# A comment holding an earlier date before the real value.
packet comment-first.xmp '  <!-- exif:DateTimeOriginal="1990-01-01T00:00:00" <exif:DateTimeOriginal>1990-01-01T00:00:00</exif:DateTimeOriginal> -->
  <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/">
   <exif:DateTimeOriginal>2016-06-07T08:09:10-07:00</exif:DateTimeOriginal>
  </rdf:Description>'

# --- Hostile packets: entity expansion (billion laughs) and an external entity (XXE). ---
cat > "$out/hostile/billion-laughs.xmp" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE x [
 <!ENTITY a "aaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
 <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
 <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
 <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
 <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
 <!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
 <!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
]>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
 <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="2020-01-01T00:00:00&i;">
  <exif:DateTimeDigitized>&i;</exif:DateTimeDigitized>
 </rdf:Description>
</rdf:RDF></x:xmpmeta>
EOF
cat > "$out/hostile/external-entity.xmp" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE x [ <!ENTITY date SYSTEM "file:///etc/hostname"> <!ENTITY remote SYSTEM "http://127.0.0.1:9/x"> ]>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
 <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/">
  <exif:DateTimeOriginal>&date;&remote;</exif:DateTimeOriginal>
 </rdf:Description>
</rdf:RDF></x:xmpmeta>
EOF

# --- PNG with its XMP in a compressed iTXt chunk (exiftool -z). ---------------------------
vips pngsave "$work/scene.ppm" "$out/xmp-compressed.png" --strip
et -z -XMP-xmp:CreateDate="2014:02:03 04:05:06-05:00" "$out/xmp-compressed.png"

# --- PSD (ImageMagick through vips), dates in image resources 0x0422 (EXIF) and 0x0424 (XMP).
vips magicksave "$work/scene.ppm" "$out/exif-xmp.psd" --format psd
et -EXIF:DateTimeOriginal="2015:03:04 05:06:07" -EXIF:OffsetTimeOriginal="+01:00" \
   -XMP-xmp:CreateDate="2015:03:04 05:06:07+01:00" "$out/exif-xmp.psd"
# XMP only, with a date-only photoshop:DateCreated beside a full xmp:CreateDate: the full
# timestamp wins.
vips magicksave "$work/scene.ppm" "$out/date-only-created.psd" --format psd
et -XMP-photoshop:DateCreated="2013:12:24" -XMP-xmp:CreateDate="2013:12:24 18:30:00+01:00" "$out/date-only-created.psd"

# --- HEIF image sequence (burst): HEVC frames in a movie box, date only in moov/mvhd. -----
# ffmpeg's mp4 muxer writes the file; its brands and handler are then set to the HEIF
# image-sequence ones (`msf1`, handler `pict`), which is all that tells the two apart.
ffmpeg -v error -f lavfi -i testsrc=size=64x48:rate=4 -frames:v 3 -c:v libx265 -x265-params log-level=error \
  -pix_fmt yuv420p -tag:v hvc1 -metadata creation_time=2021-09-10T11:12:13Z "$work/seq.mp4"
python3 - "$work/seq.mp4" "$out/sequence.heics" <<'EOF'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
assert data[4:8] == b"ftyp" and int.from_bytes(data[0:4], "big") == 28
data[8:28] = b"msf1" + b"\0\0\0\0" + b"msf1" + b"iso8" + b"heic"
at = data.find(b"hdlr")
assert data[at + 12:at + 16] == b"vide"
data[at + 12:at + 16] = b"pict"
open(sys.argv[2], "wb").write(data)
EOF

# --- Sidecars: a photo without any date, its XMP beside it under both naming schemes. -----
# Each sidecar is made from a dateless JPEG (`exiftool -o X.xmp` copies the source's tags).
vips jpegsave "$work/scene.ppm" "$work/blank.jpg" --Q 60 --strip
vips jpegsave "$work/scene.ppm" "$out/sidecars/IMG_0001.JPG" --Q 60 --strip
et -o "$out/sidecars/IMG_0001.xmp" -XMP-exif:DateTimeOriginal="2010:07:20 17:27:12.50+02:00" \
   -XMP-tiff:Orientation#=6 "$work/blank.jpg"
vips jpegsave "$work/scene.ppm" "$out/sidecars/IMG_0002.JPG" --Q 60 --strip
et -o "$out/sidecars/IMG_0002.JPG.xmp" -XMP-photoshop:DateCreated="2011:08:09" \
   -XMP-xmp:CreateDate="2011:08:09 10:11:12" "$work/blank.jpg"
# A photo with its own EXIF date and a sidecar correcting it (Lightroom's "Edit Capture Time").
vips jpegsave "$work/scene.ppm" "$out/sidecars/DSC_0003.jpg" --Q 60 --strip
et -DateTimeOriginal="2009:01:01 00:00:00" "$out/sidecars/DSC_0003.jpg"
et -o "$out/sidecars/DSC_0003.XMP" -XMP-exif:DateTimeOriginal="2009:06:15 14:00:00" "$work/blank.jpg"
# A photo without a sidecar beside them: its own (absent) date is reported as before.
vips jpegsave "$work/scene.ppm" "$out/sidecars/IMG_0004.JPG" --Q 60 --strip
et -DateTimeOriginal="2008:02:03 04:05:06" "$out/sidecars/IMG_0004.JPG"
ls -la "$out" "$out"/*/

# --- HEIF whose XMP item does not say it is XMP: exiftool adds the `mime` item with content
# type application/rdf+xml; it is then renamed application/xml (a writer's variant), so only
# the item's bytes tell. No EXIF item: the XMP is the only date.
heif-enc -q 50 -o "$out/xmp-item-untyped.heic" "$work/scene.png" >/dev/null
et -XMP-xmp:CreateDate="2019:04:05 06:07:08+03:00" "$out/xmp-item-untyped.heic"
python3 - "$out/xmp-item-untyped.heic" <<'PY'
import sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
at = data.find(b"application/rdf+xml\0")
assert at > 0
data[at:at + 20] = b"application/xml\0\0\0\0\0"
open(path, "wb").write(data)
PY

"""Inserts a hand-built EXIF APP1 segment into a JPEG, optionally with an Apple MakerNote
that carries a Live Photo content identifier (MakerNote tag 0x0011, which ExifTool 12.57
names MediaGroupUUID).

usage: live_exif.py IN.jpg OUT.jpg [UUID]

Everything is written byte by byte with struct, big-endian ("MM"), so the layout the
parser in Sources/JournalMedia/Metadata/AppleMakerNote.swift reads is the one below:

  EXIF APP1:  "Exif\\0\\0" + TIFF header "MM\\0\\x2a" + offset 8
    IFD0:     Make "Apple", Model, Orientation 1, ExifIFD pointer
    ExifIFD:  DateTimeOriginal, OffsetTimeOriginal, MakerNote (UNDEFINED) when a UUID is given
  MakerNote (offsets inside it are relative to the MakerNote's first byte):
    0   "Apple iOS\\0"            10 bytes
    10  version 0x0001            2 bytes
    12  "MM"                      byte order of the entries
    14  entry count               2 bytes
    16  entries, 12 bytes each    tag, type, count, value-or-offset
    ..  next-IFD offset 0         4 bytes
    ..  value area (values longer than 4 bytes)
"""
import struct
import sys

ASCII, SHORT, LONG, UNDEFINED, SLONG, SRATIONAL = 2, 3, 4, 7, 9, 10
TYPE_SIZE = {ASCII: 1, SHORT: 2, LONG: 4, UNDEFINED: 1, SLONG: 4, SRATIONAL: 8}


def ifd(entries, base):
    """One big-endian IFD placed at offset `base` of its container: entries are
    (tag, type, count, payload bytes); payloads over 4 bytes go after the IFD."""
    entries = sorted(entries)
    head = struct.pack(">H", len(entries))
    area_start = base + 2 + 12 * len(entries) + 4
    body, area = b"", b""
    for tag, kind, count, payload in entries:
        assert len(payload) == TYPE_SIZE[kind] * count
        if len(payload) <= 4:
            value = payload.ljust(4, b"\0")
        else:
            value = struct.pack(">I", area_start + len(area))
            area += payload
            if len(area) % 2:
                area += b"\0"
        body += struct.pack(">HHI", tag, kind, count) + value
    return head + body + struct.pack(">I", 0) + area


def ascii_value(text):
    data = text.encode("ascii") + b"\0"
    return (ASCII, len(data), data)


def apple_makernote(uuid):
    header = b"Apple iOS\0" + struct.pack(">H", 1) + b"MM"
    entries = [
        (0x0001, SLONG, 1, struct.pack(">i", 14)),                       # MakerNoteVersion
        (0x0008, SRATIONAL, 3, struct.pack(">6i", -1, 100, -98, 100, 12, 100)),  # AccelerationVector
        (0x0011, *ascii_value(uuid)),                                    # ContentIdentifier
        (0x0017, LONG, 1, struct.pack(">I", 8192)),                      # LivePhotoVideoIndex
    ]
    # The IFD starts at offset 14 of the MakerNote, and its value offsets count from 0.
    return header + ifd(entries, 14)


def exif_segment(uuid):
    ifd0_at = 8
    ifd0_entries = lambda exif_at: [
        (0x010F, *ascii_value("Apple")),
        (0x0110, *ascii_value("iPhone 15 Pro")),
        (0x0112, SHORT, 1, struct.pack(">H", 1)),
        (0x8769, LONG, 1, struct.pack(">I", exif_at)),
    ]
    # Size IFD0 once with a dummy pointer, then place the Exif IFD right after it.
    exif_at = ifd0_at + len(ifd(ifd0_entries(0), ifd0_at))
    ifd0 = ifd(ifd0_entries(exif_at), ifd0_at)
    exif_entries = [
        (0x9003, *ascii_value("2024:06:01 09:30:00")),   # DateTimeOriginal
        (0x9011, *ascii_value("+02:00")),                # OffsetTimeOriginal
    ]
    if uuid:
        note = apple_makernote(uuid)
        exif_entries.append((0x927C, UNDEFINED, len(note), note))
    tiff = b"MM\0\x2a" + struct.pack(">I", ifd0_at) + ifd0 + ifd(exif_entries, exif_at)
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def main():
    source, target = sys.argv[1], sys.argv[2]
    uuid = sys.argv[3] if len(sys.argv) > 3 else None
    jpeg = open(source, "rb").read()
    assert jpeg[:2] == b"\xff\xd8", "not a JPEG"
    rest = jpeg[2:]
    # Like a camera file: EXIF right after SOI, no JFIF APP0 segment.
    if rest[:2] == b"\xff\xe0":
        rest = rest[2 + struct.unpack(">H", rest[2:4])[0]:]
    with open(target, "wb") as f:
        f.write(jpeg[:2] + exif_segment(uuid) + rest)


main()

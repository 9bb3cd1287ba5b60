"""Builds tiny camera-raw files around real JPEG previews (made by libjpeg through vips),
following the published layouts closely enough for ExifTool to read them, with the sensor
data replaced by a few bytes (nothing here develops raw data):

  raw_preview.py dng OUT PREVIEW.jpg THUMB.jpg ORIENTATION
      DNG 1.4: IFD0 = a 16x12 RGB thumbnail (NewSubfileType 1) with Make, Model, Orientation,
      DNGVersion, the EXIF IFD (DateTimeOriginal) and two SubIFDs: the "raw" CFA image
      (NewSubfileType 0, 8x8, 16-bit, uncompressed) and the preview (NewSubfileType 1,
      compression 7, one strip holding PREVIEW.jpg). THUMB.jpg is also listed through
      JPEGInterchangeFormat in IFD1 so the largest-preview choice is tested.
  raw_preview.py cr2 OUT PREVIEW.jpg THUMB.jpg ORIENTATION
      Canon CR2: TIFF header + "CR" 2 0 + the raw IFD's offset; IFD0 = the full-size JPEG
      (compression 6, one strip: PREVIEW.jpg) with Make "Canon", Orientation and the EXIF IFD;
      IFD1 = THUMB.jpg through JPEGInterchangeFormat; IFD3 = the "raw" data as a lossless
      JPEG (SOF3) header declaring a larger frame, which must never be taken for a preview.
  raw_preview.py orf OUT PREVIEW.jpg THUMB.jpg ORIENTATION
      Olympus ORF: "IIRO" header; IFD0 = an 8x8 uncompressed "raw" strip with Make
      "OLYMPUS IMAGING CORP.", Orientation and the EXIF IFD; the EXIF IFD's MakerNote is a
      new-style Olympus one ("OLYMPUS\0II\3\0", offsets from the MakerNote's start) whose
      CameraSettings sub-IFD (tag 0x2020) holds PreviewImageValid/Start/Length (0x0100-0x0102)
      pointing at PREVIEW.jpg inside the MakerNote, as Olympus cameras store it. THUMB.jpg is
      not used. No preview is reachable without reading the MakerNote.
"""
import struct
import sys

kind, out, preview_path, thumb_path, orientation = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
preview = open(preview_path, "rb").read()
thumb = open(thumb_path, "rb").read()
DATE = b"2021:07:14 09:26:53\0"

SHORT, LONG, ASCII, BYTE, RATIONAL = 3, 4, 2, 1, 5


class Tiff:
    """Little-endian TIFF writer: directories are laid out in order, values after them."""

    def __init__(self, header):
        self.data = bytearray(header)

    def align(self):
        if len(self.data) % 2:
            self.data.append(0)

    def blob(self, payload):
        self.align()
        at = len(self.data)
        self.data += payload
        return at

    def directory(self, entries, next_ifd=0):
        """entries: (tag, type, count, value bytes or int); returns (offset, patch positions)."""
        self.align()
        start = len(self.data)
        entries = sorted(entries, key=lambda e: e[0])
        size = 2 + 12 * len(entries) + 4
        self.data += bytes(size)
        struct.pack_into("<H", self.data, start, len(entries))
        pointers = {}
        for i, (tag, typ, count, value) in enumerate(entries):
            pos = start + 2 + 12 * i
            if isinstance(value, int):
                raw = struct.pack("<H", value) + b"\0\0" if typ == SHORT else struct.pack("<I", value)
            else:
                raw = value
            if len(raw) <= 4:
                field = raw.ljust(4, b"\0")
            else:
                field = struct.pack("<I", self.blob(raw))
            struct.pack_into("<HHI", self.data, pos, tag, typ, count)
            self.data[pos + 8:pos + 12] = field
            pointers[tag] = pos + 8
        struct.pack_into("<I", self.data, start + 2 + 12 * len(entries), next_ifd)
        return start, pointers

    def patch(self, position, value):
        struct.pack_into("<I", self.data, position, value)


def jpeg_size(jpeg):
    i = 2
    while i < len(jpeg):
        marker, length = jpeg[i + 1], struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            h, w = struct.unpack(">HH", jpeg[i + 5:i + 9])
            return w, h
        i += 2 + length
    raise SystemExit("no frame in " + preview_path)


def ascii(text):
    raw = text.encode() + b"\0"
    return (ASCII, len(raw), raw)


def exif_ifd(t):
    offset, _ = t.directory([(0x9003, ASCII, len(DATE), DATE), (0x9004, ASCII, len(DATE), DATE)])
    return offset


pw, ph = jpeg_size(preview)
tw, th = jpeg_size(thumb)

if kind == "dng":
    t = Tiff(b"II*\0" + struct.pack("<I", 0))
    rgb = bytes([128, 128, 128]) * (16 * 12)
    cfa = bytes(8 * 8 * 2)
    rgb_at, cfa_at, preview_at, thumb_at = t.blob(rgb), t.blob(cfa), t.blob(preview), t.blob(thumb)
    raw_ifd, _ = t.directory([
        (0x00FE, LONG, 1, 0), (0x0100, LONG, 1, 8), (0x0101, LONG, 1, 8), (0x0102, SHORT, 1, 16),
        (0x0103, SHORT, 1, 1), (0x0106, SHORT, 1, 32803), (0x0111, LONG, 1, cfa_at), (0x0115, SHORT, 1, 1),
        (0x0116, LONG, 1, 8), (0x0117, LONG, 1, len(cfa)), (0x828D, SHORT, 2, struct.pack("<HH", 2, 2)),
        (0x828E, BYTE, 4, bytes([0, 1, 1, 2])),
    ])
    preview_ifd, _ = t.directory([
        (0x00FE, LONG, 1, 1), (0x0100, LONG, 1, pw), (0x0101, LONG, 1, ph),
        (0x0102, SHORT, 3, struct.pack("<HHH", 8, 8, 8)), (0x0103, SHORT, 1, 7), (0x0106, SHORT, 1, 6),
        (0x0111, LONG, 1, preview_at), (0x0115, SHORT, 1, 3), (0x0116, LONG, 1, ph),
        (0x0117, LONG, 1, len(preview)),
    ])
    exif = exif_ifd(t)
    ifd1, _ = t.directory([(0x0103, SHORT, 1, 6), (0x0201, LONG, 1, thumb_at), (0x0202, LONG, 1, len(thumb))])
    ifd0, _ = t.directory([
        (0x00FE, LONG, 1, 1), (0x0100, LONG, 1, 16), (0x0101, LONG, 1, 12),
        (0x0102, SHORT, 3, struct.pack("<HHH", 8, 8, 8)), (0x0103, SHORT, 1, 1), (0x0106, SHORT, 1, 2),
        (0x010F, *ascii("JournalMedia")), (0x0110, *ascii("SampleMaker DNG")),
        (0x0111, LONG, 1, rgb_at), (0x0112, SHORT, 1, orientation), (0x0115, SHORT, 1, 3),
        (0x0116, LONG, 1, 12), (0x0117, LONG, 1, len(rgb)), (0x0132, ASCII, len(DATE), DATE),
        (0x014A, LONG, 2, struct.pack("<II", raw_ifd, preview_ifd)), (0x8769, LONG, 1, exif),
        (0xC612, BYTE, 4, bytes([1, 4, 0, 0])), (0xC613, BYTE, 4, bytes([1, 1, 0, 0])),
        (0xC614, *ascii("JournalMedia SampleMaker DNG")),
    ], next_ifd=ifd1)
    t.patch(4, ifd0)
elif kind == "cr2":
    t = Tiff(b"II*\0" + struct.pack("<I", 16) + b"CR\x02\0" + struct.pack("<I", 0))
    # IFD0 must sit at 16 (right after the CR2 header): write it first, patch values later.
    ifd0, p0 = t.directory([
        (0x0100, SHORT, 1, pw), (0x0101, SHORT, 1, ph), (0x0102, SHORT, 3, struct.pack("<HHH", 8, 8, 8)),
        (0x0103, SHORT, 1, 6), (0x010F, *ascii("Canon")), (0x0110, *ascii("Canon EOS SampleMaker")),
        (0x0111, LONG, 1, 0), (0x0112, SHORT, 1, orientation), (0x0117, LONG, 1, len(preview)),
        (0x0132, ASCII, len(DATE), DATE), (0x8769, LONG, 1, 0),
    ], next_ifd=0)
    assert ifd0 == 16
    preview_at, thumb_at = t.blob(preview), t.blob(thumb)
    # "Raw" data: a lossless JPEG (SOF3) header declaring 4000x3000, then nothing useful.
    lossless = (b"\xff\xd8" + b"\xff\xc3" + struct.pack(">HBHHB", 14, 14, 3000, 4000, 2)
                + bytes([1, 0x11, 0, 2, 0x11, 0]) + b"\xff\xd9")
    raw_at = t.blob(lossless)
    exif = exif_ifd(t)
    ifd3, _ = t.directory([(0x0103, SHORT, 1, 6), (0x0111, LONG, 1, raw_at), (0x0117, LONG, 1, len(lossless))])
    ifd2, _ = t.directory([(0x0100, SHORT, 1, 8), (0x0101, SHORT, 1, 8), (0x0103, SHORT, 1, 1)], next_ifd=ifd3)
    ifd1, _ = t.directory([(0x0103, SHORT, 1, 6), (0x0201, LONG, 1, thumb_at), (0x0202, LONG, 1, len(thumb))],
                          next_ifd=ifd2)
    t.patch(p0[0x0111], preview_at)
    t.patch(p0[0x8769], exif)
    struct.pack_into("<I", t.data, 16 + 2 + 12 * 11, ifd1)  # IFD0's next-IFD link
    struct.pack_into("<I", t.data, 12, ifd3)  # the CR2 header's raw IFD offset
elif kind == "orf":
    # The MakerNote on its own first: every offset inside it counts from its first byte.
    note = bytearray(b"OLYMPUS\0II\x03\0")
    def note_ifd(entries):
        """entries: (tag, type, count, 4-byte value); written at the end of `note`."""
        start = len(note)
        note.extend(struct.pack("<H", len(entries)))
        for tag, typ, count, value in sorted(entries):
            note.extend(struct.pack("<HHI", tag, typ, count) + value)
        note.extend(struct.pack("<I", 0))
        return start
    main_at = note_ifd([(0x0000, 7, 4, b"0100"), (0x2020, 13, 1, b"\0\0\0\0")])
    settings_at = note_ifd([(0x0000, 7, 4, b"0100"), (0x0100, LONG, 1, struct.pack("<I", 1)),
                            (0x0101, LONG, 1, b"\0\0\0\0"), (0x0102, LONG, 1, struct.pack("<I", len(preview)))])
    if len(note) % 2:
        note.append(0)
    preview_in_note = len(note)
    note += preview
    # Patch CameraSettings' offset (entry 2 of the main IFD) and PreviewImageStart (entry 3).
    struct.pack_into("<I", note, main_at + 2 + 12 * 1 + 8, settings_at)
    struct.pack_into("<I", note, settings_at + 2 + 12 * 2 + 8, preview_in_note)
    t = Tiff(b"IIRO" + struct.pack("<I", 0))
    raw = bytes(8 * 8 * 2)
    raw_at, note_at = t.blob(raw), t.blob(bytes(note))
    exif, _ = t.directory([(0x9003, ASCII, len(DATE), DATE), (0x927C, 7, len(note), struct.pack("<I", note_at))])
    ifd0, _ = t.directory([
        (0x00FE, LONG, 1, 0), (0x0100, LONG, 1, 8), (0x0101, LONG, 1, 8), (0x0102, SHORT, 1, 16),
        (0x0103, SHORT, 1, 1), (0x010F, *ascii("OLYMPUS IMAGING CORP.")), (0x0110, *ascii("E-M10")),
        (0x0111, LONG, 1, raw_at), (0x0112, SHORT, 1, orientation), (0x0115, SHORT, 1, 1),
        (0x0116, LONG, 1, 8), (0x0117, LONG, 1, len(raw)), (0x0132, ASCII, len(DATE), DATE),
        (0x8769, LONG, 1, exif),
    ])
    t.patch(4, ifd0)
else:
    raise SystemExit("kind must be dng, cr2 or orf")

open(out, "wb").write(t.data)

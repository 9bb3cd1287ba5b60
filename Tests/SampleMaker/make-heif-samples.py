#!/usr/bin/env python3
"""Makes Samples/heif/, the HEIF samples the HEVC fast-path tests use (run from the package
root: python3 Tests/SampleMaker/make-heif-samples.py).

The HEVC pictures are encoded by real encoders (libheif's heif-enc with x265, libvips'
heifsave); this script only re-wraps their coded pictures in HEIF containers that those
encoders cannot write themselves:

  grid-3x2.heic          a 3x2 grid of 256x256 hvc1 tiles cropped to 600x400 (the layout
                         iPhones use, with 512x512 tiles), tiles from heif-enc
  rotated-mirrored.heic  one hvc1 item with irot (90 degrees anticlockwise) then imir (axis 1)
  nclx-bt709-limited.heic  x265 (through ffmpeg) with BT.709 matrix, limited range, and a
                         colr nclx box saying so
  vui-bt709-limited.heic the same picture with no colr box: only the HEVC VUI says BT.709
                         limited range (libheif 1.15 then converts as BT.601 full range)
  nclx-p3.heic           the photo converted to Display P3 by libvips, x265-coded (BT.601 full
                         range), colr nclx primaries 12 (P3), transfer 13 (sRGB)
  clap-rotated.heic      the same item with clap (500x300, centre moved 20 px left and 10 px
                         down: origin 30,60) then irot 270 degrees anticlockwise
  thumbnail.heic         heif-enc with a 160 px thumbnail item (thmb reference)
  alpha.heic             vips heifsave of Samples/alpha-disc.png (alpha auxiliary image)
  10bit.heic             vips heifsave --bitdepth 10
  10bit-422.heic         heif-enc -b 10 -p chroma=422 of a 16-bit PNG of the photo, scaled to
                         300x200: one hvc1 item, Main 4:2:2 10 (the layout Sony's and Canon's
                         cameras write), no colr box (libheif reads BT.601 full range from it)
  12bit-444.heic         the same with -b 12 -p chroma=444 (Main 4:4:4 12)
  10bit-422-grid-rotated.heic  a Sony-style HEIF: a 3x2 grid of 128x128 10-bit 4:2:2 tiles
                         (heif-enc: BT.601 full range, stated in an nclx box) cropped to 300x200,
                         irot 90 degrees anticlockwise on the grid, and a 10-bit 4:2:2
                         96x64 thumbnail item (thmb) with the same irot and an ispe of 96x62
                         (libvips 8.14's thumbnail then fails with Sony's 'bad image
                         dimensions on decode')
  10bit-422-grid-irot-first.heic  the same with the grid's irot listed before its ispe (a Sony
                         α7 IV's order): libheif 1.15 reports it unturned and refuses it
  overlay.heic           an overlay (iovl, which heif-enc cannot write): a 381x263 canvas filled
                         with (0x30, 0x90, 0xd0), the photo halved (300x200, heif-enc) at (41, 31),
                         and the alpha disc (heif-enc of Samples/alpha-disc.png at 100x100: an
                         hvc1 item and its alpha auxiliary item), turned by irot 90 degrees
                         anticlockwise, at (-27, 190): over the left and bottom edges, blended by
                         its alpha
  *.pillow-heif.png      beside each of those three and the overlay: pillow-heif's decode (Pillow 13 +
                         pillow-heif 1.8, libheif 1.20 inside the wheel, 8-bit RGB, transforms
                         applied), the reference the tests compare against; made in a venv
                         with `pip install pillow pillow-heif` (skipped when it cannot be made)

Needs: vips, heif-enc, ffmpeg with libx265 (apt: libvips-tools, libheif-examples, ffmpeg);
python3-venv and network for the pillow-heif references. `--high-bit-depth` makes only the
10/12-bit samples and their references, `--overlay` only the overlay and its reference.
"""
import os, struct, subprocess, sys, tempfile

OUT = "Samples/heif"


def boxes(data, start=0, end=None):
    end = len(data) if end is None else end
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[start + 8:start + 16])[0]
            header = 16
        elif size == 0:
            size = end - start
        yield kind.decode("latin1"), start + header, start + size
        start += size


def child(data, parent, kind, full=False):
    start = parent[0] + (4 if full else 0)
    for k, s, e in boxes(data, start, parent[1]):
        if k == kind:
            return s, e
    raise KeyError(kind)


def coded_picture(path):
    """(hvcC payload, colr box bytes, coded bytes) of the primary item of a one-image HEIC."""
    data = open(path, "rb").read()
    meta = child(data, (0, len(data)), "meta")
    ipco = child(data, child(data, meta, "iprp", full=True), "ipco")
    hvcc = colr = None
    for k, s, e in boxes(data, *ipco):
        if k == "hvcC":
            hvcc = data[s:e]
        if k == "colr" and data[s:s + 4] == b"nclx":
            colr = data[s - 8:e]
    pitm = child(data, meta, "pitm", full=True)
    primary = struct.unpack(">H", data[pitm[0] + 4:pitm[0] + 6])[0]
    coded = item_bytes(data, meta).get(primary)
    if coded is None:
        raise KeyError("primary item")
    return hvcc, colr, coded


def item_bytes(data, meta):
    """{item id: its bytes} from the iloc box (construction method 0: extents in the file)."""
    s, _ = child(data, meta, "iloc", full=True)
    version = data[s]
    off_size, len_size, base_size = data[s + 4] >> 4, data[s + 4] & 15, data[s + 5] >> 4
    index_size = data[s + 5] & 15 if version else 0
    cur = s + 6

    def num(width):
        nonlocal cur
        value = int.from_bytes(data[cur:cur + width], "big") if width else 0
        cur += width
        return value

    items = {}
    for _ in range(num(2 if version < 2 else 4)):
        item = num(2 if version < 2 else 4)
        if version:
            num(2)
        num(2)
        base = num(base_size)
        coded = b""
        for _ in range(num(2)):
            num(index_size)
            offset, length = num(off_size), num(len_size)
            coded += data[base + offset:base + offset + length]
        items[item] = coded
    return items


def x265_picture(png, *colour):
    """(hvcC payload, coded bytes) of one x265 intra picture made by ffmpeg, read from the MP4
    ffmpeg writes (its one sample: stsz size at stco offset)."""
    mp4 = png + ".mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", png, "-frames:v", "1", "-c:v", "libx265",
                    "-x265-params", "log-level=error:keyint=1", *colour, "-tag:v", "hvc1", mp4], check=True)
    data = open(mp4, "rb").read()

    def find(kind):
        at = data.find(kind.encode())
        size = struct.unpack(">I", data[at - 4:at])[0]
        return at + 4, at - 4 + size

    s, e = find("hvcC")
    hvcc = data[s:e]
    s, _ = find("stsz")
    sample_size = struct.unpack(">I", data[s + 4:s + 8])[0] or struct.unpack(">I", data[s + 12:s + 16])[0]
    s, _ = find("stco")
    offset = struct.unpack(">I", data[s + 8:s + 12])[0]
    return hvcc, data[offset:offset + sample_size]


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind.encode()) + payload


def full(kind, version, flags, payload):
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)


def infe(item, kind, hidden=False):
    return full("infe", 2, 1 if hidden else 0, struct.pack(">HH4s", item, 0, kind.encode()) + b"\0")


def heif(items, primary, properties, associations, references=b"", idat=None):
    """items: [(id, type, hidden, bytes, in_idat)], properties: [box bytes],
    associations: {id: [1-based property index, ...]}."""
    ftyp = box("ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heicmiaf")
    hdlr = full("hdlr", 0, 0, b"\0" * 4 + b"pict" + b"\0" * 12 + b"\0")
    pitm = full("pitm", 0, 0, struct.pack(">H", primary))
    iinf = full("iinf", 0, 0, struct.pack(">H", len(items)) + b"".join(infe(i, t, h) for i, t, h, _, _ in items))
    ipco = box("ipco", b"".join(properties))
    ipma = full("ipma", 0, 0, struct.pack(">I", len(associations)) + b"".join(
        struct.pack(">HB", item, len(indices)) + bytes(0x80 | index for index in indices)
        for item, indices in associations.items()))
    iprp = box("iprp", ipco + ipma)
    idat_payload = b"".join(data for _, _, _, data, in_idat in items if in_idat)
    idat_box = box("idat", idat_payload) if idat_payload else b""

    def build(mdat_start):
        entries = b""
        file_offset, idat_offset = mdat_start + 8, 0
        for item, _, _, data, in_idat in items:
            offset = idat_offset if in_idat else file_offset
            entries += struct.pack(">HHHHII", item, 1 if in_idat else 0, 0, 1, offset, len(data))
            if in_idat:
                idat_offset += len(data)
            else:
                file_offset += len(data)
        iloc = full("iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">H", len(items)) + entries)
        meta = full("meta", 0, 0, hdlr + pitm + iloc + iinf + references + iprp + idat_box)
        return ftyp + meta

    head = build(0)
    head = build(len(head))
    mdat = box("mdat", b"".join(data for _, _, _, data, in_idat in items if not in_idat))
    return head + mdat


def ispe(width, height):
    return full("ispe", 0, 0, struct.pack(">II", width, height))


def main():
    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp()
    source = os.path.join(tmp, "photo.png")
    subprocess.run(["vips", "copy", "Samples/photo.heic", source + "[strip]"], check=True)  # 600x400
    if sys.argv[1:] == ["--high-bit-depth"]:  # only the 10/12-bit samples (the others stay as they are)
        high_bit_depth(tmp, source)
        return
    if sys.argv[1:] == ["--overlay"]:
        overlay(tmp, source)
        return

    # Grid: 3 columns x 2 rows of 256x256 tiles; edge tiles padded by repeating the edge.
    tile, columns, rows, width, height = 256, 3, 2, 600, 400
    padded = os.path.join(tmp, "padded.png")
    subprocess.run(["vips", "embed", source, padded, "0", "0", str(tile * columns), str(tile * rows),
                    "--extend", "copy"], check=True)
    tiles = []
    for r in range(rows):
        for c in range(columns):
            png, heic = os.path.join(tmp, f"t{r}{c}.png"), os.path.join(tmp, f"t{r}{c}.heic")
            subprocess.run(["vips", "crop", padded, png, str(c * tile), str(r * tile), str(tile), str(tile)], check=True)
            subprocess.run(["heif-enc", "-q", "50", png, "-o", heic], check=True, stdout=subprocess.DEVNULL)
            tiles.append(coded_picture(heic))
    hvcc, colr, _ = tiles[0]
    assert all(t[0] == hvcc for t in tiles), "tiles need one decoder configuration"
    grid_data = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
    items = [(1, "grid", False, grid_data, True)] + [(2 + i, "hvc1", True, t[2], False) for i, t in enumerate(tiles)]
    tile_ids = range(2, 2 + len(tiles))
    references = full("iref", 0, 0, box("dimg", struct.pack(">HH", 1, len(tiles)) + b"".join(struct.pack(">H", i) for i in tile_ids)))
    # No colr box: libheif then converts with BT.601 full range, which is what heif-enc coded.
    properties = [box("hvcC", hvcc), ispe(tile, tile), ispe(width, height)]
    associations = {1: [3]}
    associations.update({i: [1, 2] for i in tile_ids})
    open(f"{OUT}/grid-3x2.heic", "wb").write(heif(items, 1, properties, associations, references))

    # One item, turned a quarter anticlockwise then mirrored left-right.
    single = os.path.join(tmp, "single.heic")
    subprocess.run(["heif-enc", "-q", "50", source, "-o", single], check=True, stdout=subprocess.DEVNULL)
    hvcc, colr, coded = coded_picture(single)
    nclx = box("colr", b"nclx" + struct.pack(">HHHB", 1, 13, 6, 0x80))  # sRGB, BT.601 matrix, full range
    properties = [box("hvcC", hvcc), ispe(width, height), nclx, box("irot", b"\x01"), box("imir", b"\x01")]
    open(f"{OUT}/rotated-mirrored.heic", "wb").write(
        heif([(1, "hvc1", False, coded, False)], 1, properties, {1: [1, 2, 3, 4, 5]}))

    clap = box("clap", struct.pack(">IIIIiIiI", 500, 1, 300, 1, -20, 1, 10, 1))
    properties = [box("hvcC", hvcc), ispe(width, height), nclx, clap, box("irot", b"\x03")]
    open(f"{OUT}/clap-rotated.heic", "wb").write(
        heif([(1, "hvc1", False, coded, False)], 1, properties, {1: [1, 2, 3, 4, 5]}))

    # Limited-range BT.709, with and without a colr box; Display P3 primaries.
    limited = ["-pix_fmt", "yuv420p", "-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709",
               "-color_trc", "bt709"]
    hvcc, coded = x265_picture(source, *limited)
    nclx = box("colr", b"nclx" + struct.pack(">HHHB", 1, 13, 1, 0x00))
    open(f"{OUT}/nclx-bt709-limited.heic", "wb").write(
        heif([(1, "hvc1", False, coded, False)], 1, [box("hvcC", hvcc), ispe(width, height), nclx], {1: [1, 2, 3]}))
    open(f"{OUT}/vui-bt709-limited.heic", "wb").write(
        heif([(1, "hvc1", False, coded, False)], 1, [box("hvcC", hvcc), ispe(width, height)], {1: [1, 2]}))
    p3 = os.path.join(tmp, "p3.png")
    subprocess.run(["vips", "icc_transform", source, p3, "p3", "--input-profile", "srgb"], check=True)
    hvcc, coded = x265_picture(p3, "-pix_fmt", "yuvj420p", "-colorspace", "smpte170m")
    nclx = box("colr", b"nclx" + struct.pack(">HHHB", 12, 13, 6, 0x80))
    open(f"{OUT}/nclx-p3.heic", "wb").write(
        heif([(1, "hvc1", False, coded, False)], 1, [box("hvcC", hvcc), ispe(width, height), nclx], {1: [1, 2, 3]}))

    subprocess.run(["heif-enc", "-q", "50", "-t", "160", source, "-o", f"{OUT}/thumbnail.heic"], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["vips", "heifsave", "Samples/alpha-disc.png", f"{OUT}/alpha.heic"], check=True)
    small = os.path.join(tmp, "small.png")
    subprocess.run(["vips", "resize", source, small, "0.4"], check=True)
    subprocess.run(["vips", "heifsave", small, f"{OUT}/10bit.heic", "--bitdepth", "10"], check=True)
    high_bit_depth(tmp, source)
    overlay(tmp, source)


def heif_items(path):
    """Every item of a HEIF file written by heif-enc: {id: (type, coded bytes, [property boxes])}
    and its references [(type, from, [to])]."""
    data = open(path, "rb").read()
    meta = child(data, (0, len(data)), "meta")
    iprp = child(data, meta, "iprp", full=True)
    ipco = child(data, iprp, "ipco")
    properties = [data[s - 8:e] for _, s, e in boxes(data, *ipco)]
    s, e = child(data, iprp, "ipma")
    flags = int.from_bytes(data[s + 1:s + 4], "big")
    cur, associated = s + 8, {}
    for _ in range(struct.unpack(">I", data[s + 4:s + 8])[0]):
        item = struct.unpack(">H", data[cur:cur + 2])[0]
        count, cur = data[cur + 2], cur + 3
        indices = []
        for _ in range(count):
            if flags & 1:
                indices.append(struct.unpack(">H", data[cur:cur + 2])[0] & 0x7fff)
                cur += 2
            else:
                indices.append(data[cur] & 0x7f)
                cur += 1
        associated[item] = [properties[i - 1] for i in indices if i]
    types = {}
    s, e = child(data, meta, "iinf", full=True)
    for k, bs, be in boxes(data, s + 6, e):
        item, kind = struct.unpack(">H", data[bs + 4:bs + 6])[0], data[bs + 8:bs + 12].decode()
        types[item] = kind
    references = []
    s, e = child(data, meta, "iref", full=True)
    for kind, bs, be in boxes(data, s + 4, e):
        count = struct.unpack(">H", data[bs + 2:bs + 4])[0]
        references.append((kind, struct.unpack(">H", data[bs:bs + 2])[0],
                           [struct.unpack(">H", data[bs + 4 + 2 * i:bs + 6 + 2 * i])[0] for i in range(count)]))
    coded = item_bytes(data, meta)
    items = {item: (types[item], coded[item], associated.get(item, [])) for item in coded}
    return items, references


def overlay(tmp, source):
    """overlay.heic: an iovl of the photo and the turned alpha disc on a filled canvas."""
    disc, photo_png = os.path.join(tmp, "disc.png"), os.path.join(tmp, "photo-half.png")
    subprocess.run(["vips", "resize", "Samples/alpha-disc.png", disc, str(100 / 300)], check=True)
    subprocess.run(["vips", "resize", source, photo_png, "0.5"], check=True)
    layers = os.path.join(tmp, "layers.heic")
    subprocess.run(["heif-enc", "-q", "60", photo_png, disc, "-o", layers], check=True, stdout=subprocess.DEVNULL)
    items, references = heif_items(layers)
    alpha_of = {to[0]: item for kind, item, to in references if kind == "auxl"}
    photo, circle = sorted(i for i, (kind, _, _) in items.items() if kind == "hvc1" and i not in alpha_of.values())
    alpha = alpha_of[circle]
    canvas = (381, 263)
    offsets = [(41, 31), (-27, 190)]
    iovl_data = struct.pack(">BB4HHH", 0, 0, 0x3000, 0x9000, 0xd000, 0xffff, *canvas) + b"".join(
        struct.pack(">hh", x, y) for x, y in offsets)
    new_ids = {photo: 2, circle: 3, alpha: 4}
    out_items = [(1, "iovl", False, iovl_data, True)] + [
        (new_ids[old], "hvc1", True, items[old][1], False) for old in (photo, circle, alpha)]
    properties, associations = [ispe(*canvas)], {1: [1]}
    for old in (photo, circle, alpha):
        indices = []
        for prop in items[old][2]:
            if prop[4:8] in (b"hvcC", b"ispe", b"auxC", b"pixi", b"colr"):
                properties.append(prop)
                indices.append(len(properties))
        if old == circle:
            properties.append(box("irot", b"\x01"))
            indices.append(len(properties))
        associations[new_ids[old]] = indices
    references_box = full("iref", 0, 0, box("dimg", struct.pack(">HHHH", 1, 2, 2, 3))
                          + box("auxl", struct.pack(">HHH", 4, 1, 3)))
    open(f"{OUT}/overlay.heic", "wb").write(heif(out_items, 1, properties, associations, references_box))
    pillow_heif_references(tmp, ["overlay.heic"])


def encode_16bit(png16, heic, depth, chroma, *colour):
    """heif-enc of a 16-bit PNG at `depth` bits with x265's `chroma` (420/422/444)."""
    subprocess.run(["heif-enc", "-q", "50", "-b", str(depth), "-p", f"chroma={chroma}", *colour, png16, "-o", heic],
                   check=True, stdout=subprocess.DEVNULL)


def high_bit_depth(tmp, source):
    """The 10- and 12-bit samples of camera HEIFs, and pillow-heif's decodes of them."""
    small16 = os.path.join(tmp, "small16.png")
    subprocess.run(["vips", "resize", source, os.path.join(tmp, "small-8.png"), "0.5"], check=True)
    subprocess.run(["vips", "colourspace", os.path.join(tmp, "small-8.png"), small16, "rgb16"], check=True)
    encode_16bit(small16, f"{OUT}/10bit-422.heic", 10, 422)
    encode_16bit(small16, f"{OUT}/12bit-444.heic", 12, 444)

    # Sony-style: grid of 10-bit 4:2:2 tiles, BT.709 full range, rotated, with a thumbnail.
    tile, columns, rows, width, height = 128, 3, 2, 300, 200
    padded = os.path.join(tmp, "padded16.png")
    subprocess.run(["vips", "embed", os.path.join(tmp, "small-8.png"), os.path.join(tmp, "padded-8.png"), "0", "0", str(tile * columns),
                    str(tile * rows), "--extend", "copy"], check=True)
    subprocess.run(["vips", "colourspace", os.path.join(tmp, "padded-8.png"), padded, "rgb16"], check=True)
    tiles = []
    for r in range(rows):
        for c in range(columns):
            png, heic = os.path.join(tmp, f"h{r}{c}.png"), os.path.join(tmp, f"h{r}{c}.heic")
            subprocess.run(["vips", "crop", padded, png, str(c * tile), str(r * tile), str(tile), str(tile)], check=True)
            encode_16bit(png, heic, 10, 422)
            tiles.append(coded_picture(heic))
    hvcc, _, _ = tiles[0]
    assert all(t[0] == hvcc for t in tiles), "tiles need one decoder configuration"
    # heif-enc 1.15 codes 16-bit input as BT.601 full range and writes no colr box; say so.
    colr = box("colr", b"nclx" + struct.pack(">HHHB", 1, 13, 6, 0x80))
    thumb_png, thumb_heic = os.path.join(tmp, "thumb16.png"), os.path.join(tmp, "thumb.heic")
    subprocess.run(["vips", "thumbnail", source, os.path.join(tmp, "thumb8.png"), "96"], check=True)
    subprocess.run(["vips", "colourspace", os.path.join(tmp, "thumb8.png"), thumb_png, "rgb16"], check=True)
    encode_16bit(thumb_png, thumb_heic, 10, 422)
    thumb_hvcc, _, thumb_coded = coded_picture(thumb_heic)
    grid_data = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
    thumb_id = 2 + len(tiles)
    items = ([(1, "grid", False, grid_data, True)] + [(2 + i, "hvc1", True, t[2], False) for i, t in enumerate(tiles)]
             + [(thumb_id, "hvc1", False, thumb_coded, False)])
    tile_ids = range(2, 2 + len(tiles))
    references = full("iref", 0, 0,
                      box("dimg", struct.pack(">HH", 1, len(tiles)) + b"".join(struct.pack(">H", i) for i in tile_ids))
                      + box("thmb", struct.pack(">HHH", thumb_id, 1, 1)))
    # 1 hvcC (tiles), 2 tile ispe, 3 grid ispe, 4 colr, 5 irot, 6 thumbnail hvcC, 7 its ispe:
    # 96x62 of the coded 96x64, a thumbnail whose ispe is smaller than its picture, which
    # libvips 8.14's thumbnail refuses ("heifload: bad image dimensions on decode"), the
    # error Sony's HIFs get.
    properties = [box("hvcC", hvcc), ispe(tile, tile), ispe(width, height), colr, box("irot", b"\x01"),
                  box("hvcC", thumb_hvcc), ispe(96, 62)]
    associations = {1: [3, 4, 5]}
    associations.update({i: [1, 2] for i in tile_ids})
    associations[thumb_id] = [6, 7, 4, 5]
    open(f"{OUT}/10bit-422-grid-rotated.heic", "wb").write(heif(items, 1, properties, associations, references))
    # The same file with the grid's irot listed before its ispe, as a Sony α7 IV writes it:
    # libheif 1.15 then reports the unturned 300x200 and refuses to decode it.
    associations[1] = [5, 3, 4]
    open(f"{OUT}/10bit-422-grid-irot-first.heic", "wb").write(heif(items, 1, properties, associations, references))
    pillow_heif_references(tmp, ["10bit-422.heic", "12bit-444.heic", "10bit-422-grid-rotated.heic"])


def pillow_heif_references(tmp, names):
    """pillow-heif's 8-bit RGB decode of each sample, as NAME.pillow-heif.png."""
    venv = os.path.join(tmp, "venv")
    try:
        subprocess.run(["python3", "-m", "venv", venv], check=True)
        subprocess.run([f"{venv}/bin/pip", "install", "-q", "pillow", "pillow-heif"], check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"no pillow-heif references ({error}); the committed ones stay")
        return
    script = ("import sys, pillow_heif; from PIL import Image; pillow_heif.register_heif_opener()\n"
              "for name in sys.argv[1:]:\n"
              "    Image.open(name).convert('RGB').save(name + '.pillow-heif.png', optimize=True)\n")
    subprocess.run([f"{venv}/bin/python", "-c", script, *[f"{OUT}/{name}" for name in names]], check=True)
    for name in names:
        os.replace(f"{OUT}/{name}.pillow-heif.png", f"{OUT}/{name.rsplit('.', 1)[0]}.pillow-heif.png")


if __name__ == "__main__":
    main()

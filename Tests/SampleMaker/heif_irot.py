"""Adds an `irot` (rotation) property to the primary item of a single-image HEIF written by
libheif, the way a phone stores a photo taken sideways: the coded pixels stay as they are
and the container says "rotate anticlockwise by ANGLE × 90° to display".

Usage: heif_irot.py IN OUT ANGLE   (ANGLE 0–3). The new property box is appended to `ipco`
and associated with item 1 in `ipma`; `iloc` offsets into `mdat` (which follows `meta`)
are shifted by the bytes added, and the enclosing box sizes grow to match.
"""
import struct
import sys


def boxes(data, start, end):
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        if size < 8:
            raise SystemExit("unsupported box size")
        yield kind.decode("latin1"), at, at + size
        at += size


def main():
    source, target, angle = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = bytearray(open(source, "rb").read())
    meta = next((s, e) for k, s, e in boxes(data, 0, len(data)) if k == "meta")
    children = {k: (s, e) for k, s, e in boxes(data, meta[0] + 12, meta[1])}
    iprp = children["iprp"]
    inner = {k: (s, e) for k, s, e in boxes(data, iprp[0] + 8, iprp[1])}
    ipco, ipma = inner["ipco"], inner["ipma"]
    index = sum(1 for _ in boxes(data, ipco[0] + 8, ipco[1])) + 1  # 1-based property index
    irot = struct.pack(">I4sB", 9, b"irot", angle & 3)

    # ipma: version/flags, entry_count, then per item: id (16 bit in v0), count, associations.
    version, flags = data[ipma[0] + 8], int.from_bytes(data[ipma[0] + 9:ipma[0] + 12], "big")
    if version != 0 or flags & 1:
        raise SystemExit("only ipma version 0 with 7-bit indices is handled")
    at = ipma[0] + 16
    count = struct.unpack(">I", data[ipma[0] + 12:ipma[0] + 16])[0]
    insert_at = None
    for _ in range(count):
        item, n = struct.unpack(">HB", data[at:at + 3])
        if item == 1:
            insert_at = at + 3 + n
            data[at + 2] = n + 1
        at += 3 + n
    if insert_at is None:
        raise SystemExit("item 1 has no associations")
    # Essential flag (0x80) set: a reader must apply the rotation.
    data[insert_at:insert_at] = bytes([0x80 | index])
    added = 1 + len(irot)

    def grow(start, by):
        size = struct.unpack(">I", data[start:start + 4])[0]
        data[start:start + 4] = struct.pack(">I", size + by)

    grow(ipma[0], 1)
    # ipco ends where ipma starts: insert after the ipma edits, which sit at later offsets.
    data[ipco[1]:ipco[1]] = irot
    grow(ipco[0], len(irot))
    grow(iprp[0], added)
    grow(meta[0], added)

    # iloc (v0/v1): shift every file offset (construction method 0) by the bytes added.
    meta_end = meta[1] + added
    iloc = next((s, e) for k, s, e in boxes(data, meta[0] + 12, meta_end) if k == "iloc")
    v = data[iloc[0] + 8]
    sizes = data[iloc[0] + 12]
    offset_size, length_size = sizes >> 4, sizes & 15
    base_size = data[iloc[0] + 13] >> 4
    index_size = data[iloc[0] + 13] & 15 if v in (1, 2) else 0
    at = iloc[0] + 14
    items = struct.unpack(">H", data[at:at + 2])[0]
    at += 2
    for _ in range(items):
        at += 2  # item id
        method = 0
        if v in (1, 2):
            method = int.from_bytes(data[at:at + 2], "big") & 15
            at += 2
        at += 2  # data reference index
        base = int.from_bytes(data[at:at + base_size], "big") if base_size else 0
        if base_size and method == 0 and base:
            data[at:at + base_size] = (base + added).to_bytes(base_size, "big")
        at += base_size
        extents = struct.unpack(">H", data[at:at + 2])[0]
        at += 2
        for _ in range(extents):
            at += index_size
            offset = int.from_bytes(data[at:at + offset_size], "big")
            if method == 0 and not base and offset_size:
                data[at:at + offset_size] = (offset + added).to_bytes(offset_size, "big")
            at += offset_size + length_size
    open(target, "wb").write(bytes(data))


if __name__ == "__main__":
    main()

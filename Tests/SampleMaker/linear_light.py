"""Writes a small scene-referred (linear-light, float) test picture as PFM or OpenEXR.

The picture (48×32): a mid-grey ground (0.18, the photographic mid-grey), a red marker in
the top-left 12×12 corner (linear 0.6, 0.02, 0.02: orientation), and a 12×12 highlight in
the bottom-right corner six times brighter than white (6.0: it must roll off to white, not
wrap or darken). A scale factor multiplies every value (e.g. 100 for a file in absolute
units, as Radiance captures are).

    linear_light.py pfm OUT [SCALE]    portable float map, little-endian, rows bottom-up
    linear_light.py exr OUT [SCALE]    OpenEXR 2 scanline file, half floats, no compression

The EXR writer follows the OpenEXR file layout document (magic, version 2, header
attributes, a line offset table, one chunk per scanline with channels in name order)."""
import struct
import sys
import numpy as np

kind, path = sys.argv[1], sys.argv[2]
scale = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
W, H = 48, 32
img = np.full((H, W, 3), 0.18, dtype=np.float32)
img[:12, :12] = [0.6, 0.02, 0.02]
img[-12:, -12:] = [6.0, 6.0, 6.0]
img *= scale

if kind == "pfm":
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (W, H))
        f.write(img[::-1].astype("<f4").tobytes())
elif kind == "exr":
    def attribute(name, kind, value):
        return name.encode() + b"\0" + kind.encode() + b"\0" + struct.pack("<i", len(value)) + value
    channels = b"".join(c + b"\0" + struct.pack("<iBxxxii", 1, 0, 1, 1) for c in (b"B", b"G", b"R")) + b"\0"
    box = struct.pack("<iiii", 0, 0, W - 1, H - 1)
    header = (attribute("channels", "chlist", channels)
              + attribute("compression", "compression", b"\0")
              + attribute("dataWindow", "box2i", box)
              + attribute("displayWindow", "box2i", box)
              + attribute("lineOrder", "lineOrder", b"\0")
              + attribute("pixelAspectRatio", "float", struct.pack("<f", 1.0))
              + attribute("screenWindowCenter", "v2f", struct.pack("<ff", 0, 0))
              + attribute("screenWindowWidth", "float", struct.pack("<f", 1.0))
              + b"\0")
    start = 8 + len(header) + 8 * H
    rows = []
    for y in range(H):
        data = b"".join(img[y, :, c].astype("<f2").tobytes() for c in (2, 1, 0))  # B, G, R
        rows.append(struct.pack("<ii", y, len(data)) + data)
    offsets, at = [], start
    for row in rows:
        offsets.append(at)
        at += len(row)
    with open(path, "wb") as f:
        f.write(struct.pack("<ii", 20000630, 2) + header)
        f.write(b"".join(struct.pack("<Q", o) for o in offsets))
        f.write(b"".join(rows))
else:
    sys.exit("kind must be pfm or exr")

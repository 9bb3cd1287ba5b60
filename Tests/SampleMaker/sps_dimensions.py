#!/usr/bin/env python3
"""Rewrites the frame size an H.264 MP4's sequence parameter set declares.

Usage: sps_dimensions.py IN.mp4 OUT.mp4 WIDTH HEIGHT

IN must be a Baseline-profile H.264 MP4 from libx264 with its moov after mdat (ffmpeg's
default: no +faststart), so growing the avcC box shifts no sample offsets. The SPS in avcC is
decoded (emulation prevention removed), pic_width_in_mbs_minus1 and
pic_height_in_map_units_minus1 replaced, the remaining bits copied, emulation prevention
re-inserted, and the size of avcC and of every box around it adjusted. The sample entry's
own width/height fields are left as they were: only the SPS lies, as in the audit's file.
Used to make Samples/limits/sps-16000x16000.mp4 (issue 14, item 2).
"""
import struct
import sys


class Bits:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def bit(self):
        b = (self.data[self.pos >> 3] >> (7 - (self.pos & 7))) & 1
        self.pos += 1
        return b

    def ue(self):
        zeros = 0
        while self.bit() == 0:
            zeros += 1
        value = 0
        for _ in range(zeros):
            value = value << 1 | self.bit()
        return (1 << zeros) - 1 + value


class Writer:
    def __init__(self):
        self.bits = []

    def put(self, value, count):
        self.bits += [(value >> (count - 1 - i)) & 1 for i in range(count)]

    def ue(self, value):
        code = value + 1
        length = code.bit_length()
        self.put(0, length - 1)
        self.put(code, length)

    def bytes(self):
        out = bytearray()
        for i in range(0, len(self.bits), 8):
            chunk = self.bits[i:i + 8] + [0] * (8 - len(self.bits[i:i + 8]))
            out.append(int("".join(map(str, chunk)), 2))
        return bytes(out)


def unescape(nal):
    out, zeros = bytearray(), 0
    for b in nal:
        if zeros >= 2 and b == 3:
            zeros = 0
            continue
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def escape(rbsp):
    out, zeros = bytearray(), 0
    for b in rbsp:
        if zeros >= 2 and b <= 3:
            out.append(3)
            zeros = 0
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def rewrite_sps(sps, width, height):
    rbsp = unescape(sps[1:])
    profile = rbsp[0]
    assert profile == 66, "expects Baseline profile (no chroma/scaling fields)"
    bits = Bits(rbsp[3:])
    w = Writer()
    w.ue(bits.ue())                    # seq_parameter_set_id
    w.ue(bits.ue())                    # log2_max_frame_num_minus4
    poc_type = bits.ue()
    w.ue(poc_type)
    assert poc_type in (0, 2)
    if poc_type == 0:
        w.ue(bits.ue())                # log2_max_pic_order_cnt_lsb_minus4
    w.ue(bits.ue())                    # max_num_ref_frames
    w.put(bits.bit(), 1)               # gaps_in_frame_num_value_allowed_flag
    bits.ue(); bits.ue()               # the real width and height in macroblocks
    w.ue(width // 16 - 1)
    w.ue(height // 16 - 1)
    # Everything after, up to and including the rbsp stop bit, unchanged (frame_mbs_only,
    # direct_8x8, cropping (dropped: cleared below), VUI).
    rest = [(rbsp[3 + (i >> 3)] >> (7 - (i & 7))) & 1 for i in range(bits.pos, (len(rbsp) - 3) * 8)]
    while rest and rest[-1] == 0:
        rest.pop()
    frame_mbs_only = rest[0]
    assert frame_mbs_only == 1
    # rest: frame_mbs_only(1) direct_8x8(1) cropping_flag(1) [4 ue] vui...: drop any cropping.
    w.bits += rest[:2]
    if rest[2] == 1:
        tail = Bits(bytes(int("".join(map(str, rest[3:][i:i + 8] + [0] * (8 - len(rest[3:][i:i + 8])))), 2)
                          for i in range(0, len(rest) - 3, 8)))
        for _ in range(4):
            tail.ue()
        rest = rest[:3] + rest[3 + tail.pos:]
    w.put(0, 1)
    w.bits += rest[3:]
    return sps[:1] + escape(rbsp[:3] + w.bytes())


def boxes(data, start, end):
    pos = start
    while pos + 8 <= end:
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield pos, size, kind.decode("latin-1")
        pos += size


def main():
    src, dst, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    data = bytearray(open(src, "rb").read())
    # moov/trak/mdia/minf/stbl/stsd(+8: full box, entry count)/avc1(+78: visual sample entry)/avcC
    path, start, end = [], 0, len(data)
    for kind, skip in [("moov", 0), ("trak", 0), ("mdia", 0), ("minf", 0), ("stbl", 0), ("stsd", 8),
                       ("avc1", 78), ("avcC", 0)]:
        pos, size = next((p, s) for p, s, k in boxes(data, start, end) if k == kind)
        path.append(pos)
        start, end = pos + 8 + skip, pos + size
    avcc = path[-1] + 8
    assert data[avcc + 5] & 0x1F == 1, "one SPS expected"
    length = struct.unpack(">H", data[avcc + 6:avcc + 8])[0]
    sps = bytes(data[avcc + 8:avcc + 8 + length])
    new = rewrite_sps(sps, width, height)
    delta = len(new) - len(sps)
    data[avcc + 6:avcc + 8 + length] = struct.pack(">H", len(new)) + new
    for pos in path:
        size = struct.unpack(">I", data[pos:pos + 4])[0]
        data[pos:pos + 4] = struct.pack(">I", size + delta)
    open(dst, "wb").write(bytes(data))


if __name__ == "__main__":
    main()

"""Splices an AVCHD-style MDPM recording date into an H.264 Annex B stream.

Usage: avchd_mdpm.py IN.h264 OUT.h264 ZONE_BYTE 'YYYY:MM:DD hh:mm:ss'

Camcorders write the date as an SEI "user data unregistered" message (payload type 5): the
UUID 17EE8C60-F84D-11D9-8CD6-0800200C9A66, the text MDPM, a record count and 5-byte records
(tag + 4 bytes). Tag 0x18 = zone byte, BCD year high, year low, month; tag 0x19 = BCD day,
hour, minute, second (the layout ExifTool's H264 module documents). ffmpeg's h264_metadata
filter writes user data only as text, so the NAL unit is built here, with emulation-prevention
bytes, and inserted before the first slice of every IDR access unit.
"""
import sys

from sps_dimensions import escape  # emulation-prevention bytes, as for the SPS

UUID = bytes.fromhex("17ee8c60f84d11d98cd60800200c9a66")


def bcd(value):
    return ((value // 10) << 4) | (value % 10)


def mdpm_payload(zone, text):
    date, clock = text.split(" ")
    year, month, day = (int(v) for v in date.split(":"))
    hour, minute, second = (int(v) for v in clock.split(":"))
    records = [
        bytes([0x13, 0x00, 0x00, 0x00, 0x00]),  # time code, as camcorders write before the date
        bytes([0x18, zone, bcd(year // 100), bcd(year % 100), bcd(month)]),
        bytes([0x19, bcd(day), bcd(hour), bcd(minute), bcd(second)]),
        bytes([0x70, 0xFF, 0xFF, 0xFF, 0xFF]),  # camera record with nothing set
    ]
    return UUID + b"MDPM" + bytes([len(records)]) + b"".join(records)


def sei_nal(payload):
    body = bytes([5])  # payload type: user data unregistered
    size = len(payload)
    while size >= 255:
        body += b"\xff"
        size -= 255
    body += bytes([size]) + payload + b"\x80"  # rbsp stop bit
    return b"\x00\x00\x00\x01\x06" + escape(body)


def main():
    source, target, zone, text = sys.argv[1], sys.argv[2], int(sys.argv[3], 0), sys.argv[4]
    data = open(source, "rb").read()
    nal = sei_nal(mdpm_payload(zone, text))
    out = bytearray()
    position = 0
    index = data.find(b"\x00\x00\x01")
    while index >= 0:
        start = index - 1 if index > 0 and data[index - 1] == 0 else index
        if index + 3 < len(data) and data[index + 3] & 0x1F == 5:
            out += data[position:start] + nal
            position = start
        index = data.find(b"\x00\x00\x01", index + 3)
    out += data[position:]
    open(target, "wb").write(bytes(out))


main()

#!/usr/bin/env python3
"""png_colors.py FILE.png: counts the pixels of the player page's colours in
a screenshot (8-bit RGB or RGBA PNG, not interlaced; the standard library
only). Prints one line: width height distinct-colours and NAME=count for
each colour below (within a small tolerance)."""
import struct
import sys
import zlib

COLOURS = {
    "wall": (0x6B, 0x5A, 0x48),
    "floor": (0xEF, 0xE3, 0xC8),
    "box": (0xC9, 0x8A, 0x3C),
    "boxgoal": (0x3F, 0x8F, 0x5A),
    "goal": (0xD0, 0x52, 0x3A),
    "player": (0x2F, 0x5F, 0xA8),
}


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("unsupported PNG: depth %d colour type %d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = read_png(sys.argv[1])
    counts = {k: 0 for k in COLOURS}
    distinct = set()
    for row in rows:
        for x in range(0, w * bpp, bpp):
            px = (row[x], row[x + 1], row[x + 2])
            distinct.add(px)
            for k, c in COLOURS.items():
                if abs(px[0] - c[0]) <= 6 and abs(px[1] - c[1]) <= 6 and abs(px[2] - c[2]) <= 6:
                    counts[k] += 1
    print(w, h, len(distinct), " ".join("%s=%d" % kv for kv in counts.items()))


if __name__ == "__main__":
    main()

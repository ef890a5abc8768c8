#!/usr/bin/env python3
# make_mips_inputs.py -- writes the RGBA8 PNGs run_on_gpu.sh feeds to `waveemu mips`: power-of-two
# and odd sizes of one pattern (R and G gradients, a 3x3 checkerboard in B, an alpha ramp; the
# level 0 of tests/oracle/test_mips_vulkan.cpp). Usage: make_mips_inputs.py OUT_DIR
import struct
import sys
import zlib
from pathlib import Path

SIZES = [(64, 64), (128, 32), (3, 5), (17, 9), (33, 20)]


def pixel(x, y, w, h):
    r = x * 255 // max(w - 1, 1) % 256
    g = y * 255 // max(h - 1, 1) % 256
    b = 255 if (x // 3 + y // 3) % 2 else 0
    a = (x * 7 + y * 13) % 256
    return bytes((r, g, b, a))


def png(w, h):
    rows = b"".join(b"\0" + b"".join(pixel(x, y, w, h) for x in range(w)) for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) +
            chunk(b"IEND", b""))


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for w, h in SIZES:
        (out / f"pattern_{w}x{h}.png").write_bytes(png(w, h))


if __name__ == "__main__":
    main()

"""Run 11: the device's words as differences from correctly rounded float32 (numpy's IEEE
arithmetic), small enough to bring back. Usage: analyze_on_device.py [--scaling] RUN_DIR OUT_DIR
(--scaling: scaling.yaml's buffers, else division.yaml's).

For each buffer NAME it writes NAME.npz: `delta` (int8: device bits minus the reference's bits,
clipped to +-127) and `big_index`/`big_bits` (the threads whose difference does not fit, with the
device's bits). The reference is recomputed the same way from the inputs, so the device's words
are reference + delta, or big_bits. Prints a histogram of each buffer's differences."""
import sys
import numpy as np

scaling = sys.argv[1] == "--scaling"
run, out = sys.argv[-2], sys.argv[-1]
n = 1 << 24
i = np.arange(n, dtype=np.uint32)


def load(name):
    return np.fromfile(f"{run}/{name}.bin", dtype=np.uint32)


def hash32(x):  # lowbias32, as division.hlsl
    x = x.astype(np.uint32)
    x ^= x >> np.uint32(16); x *= np.uint32(0x7feb352d)
    x ^= x >> np.uint32(15); x *= np.uint32(0x846ca68b)
    x ^= x >> np.uint32(16)
    return x


def make(h, g, wide):
    e = np.where(wide, (g % np.uint32(254)).astype(np.int64) - 126,
                 (g % np.uint32(41)).astype(np.int64) - 20)
    bits = (g & np.uint32(0x80000000)) | ((e + 127).astype(np.uint32) << np.uint32(23)) | (
        h & np.uint32(0x7fffff))
    return bits.astype(np.uint32)


def f32(bits):
    return bits.view(np.float32)


def check_inputs(pairs):
    for name, want in pairs:
        got = load(name)
        print(f"{name}: {np.count_nonzero(got != want)} of {n} inputs differ from the replica")


with np.errstate(all="ignore"):
  if not scaling:
    m = i & np.uint32(0x7fffff)
    xbits = np.where(i < 0x800000, np.uint32(0x3f800000) | m, make(m, hash32(i), True))
    x = f32(xbits.astype(np.uint32))
    s = f32((np.uint32(0x3f800000) + i).astype(np.uint32))
    ha, hb = hash32(i ^ np.uint32(0x9e3779b9)), hash32(i ^ np.uint32(0x85ebca6b))
    wide = (hash32(i) & np.uint32(15)) == 0
    abits, bbits = make(ha, hash32(ha), wide), make(hb, hash32(hb), wide)
    check_inputs((("DivA", abits), ("DivB", bbits)))
    refs = {
        "Rcp": np.float32(1) / x,
        "Sqrt": np.sqrt(s),
        "Rsqrt": (1.0 / np.sqrt(s.astype(np.float64))).astype(np.float32),
        "DivQ": f32(abits) / f32(bbits),
    }
  else:
    h = hash32(i + np.uint32(0x1234567))
    j = (h % np.uint32(127)).astype(np.int64) - 63
    xbits = np.where((h & np.uint32(0xf0)) == 0, i & np.uint32(0x7fffff),
                     (np.int64(0x3f800000) + i + j * (1 << 24)).astype(np.uint32)).astype(np.uint32)
    g = hash32(h)
    nb = (g & np.uint32(0x80000000)) | (((g % np.uint32(41)).astype(np.int64) - 20 + 127).astype(
        np.uint32) << np.uint32(23)) | (h >> np.uint32(9))
    db = (h & np.uint32(0x80000000)) | (g & np.uint32(0x7fffff))
    first = (g & np.uint32(0x100)) != 0
    abits = np.where(first, db, nb).astype(np.uint32)
    bbits = np.where(first, nb, db).astype(np.uint32)
    check_inputs((("X2", xbits), ("DivA2", abits), ("DivB2", bbits)))
    x = f32(xbits).astype(np.float64)
    refs = {
        "Sqrt2": np.sqrt(x).astype(np.float32),
        "Rsqrt2": (1.0 / np.sqrt(x)).astype(np.float32),
        "DivQ2": f32(abits) / f32(bbits),
    }

for name, ref in refs.items():
    dev = load(name).view(np.int32).astype(np.int64)
    d = dev - ref.view(np.int32).astype(np.int64)
    big = np.abs(d) > 127
    np.savez_compressed(f"{out}/{name}.npz", delta=np.clip(d, -127, 127).astype(np.int8),
                        big_index=np.flatnonzero(big).astype(np.uint32),
                        big_bits=dev[big].astype(np.int32).view(np.uint32))
    values, counts = np.unique(np.clip(d, -128, 128), return_counts=True)
    hist = ", ".join(f"{v:+d}: {c}" for v, c in zip(values, counts))
    print(f"{name}: device minus correctly rounded, in units of the last place: {hist}")
    for part, sel in (("first half", i < 0x800000), ("second half", i >= 0x800000)):
        print(f"  {part}: {np.count_nonzero(d[sel] == 0)} of {np.count_nonzero(sel)} exact")

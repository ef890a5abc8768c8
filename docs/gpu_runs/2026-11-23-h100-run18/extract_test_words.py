"""Run 18: the H100 words that tests/emulator/test_h100_math.cpp holds the emulator to, taken from
this run's Vulkan records (not from the emulator): the first 2048 threads of study.yaml
(vk_exp.npz, vk_log.npz) and study2.yaml (vk_study2.npz) for each function. Run by hand with the
records beside this file (numpy; they are not kept in the repository, 22 MB):

    python3 extract_test_words.py RECORDS_DIR tests/emulator/data/h100_run18_words.bin

The file holds, for exp2, exp, sin, cos, log2, log, log10, pow, tan, sinh and cosh in that
order, 2048 records of three little-endian uint32: x, y (pow's exponent; 0 for the others) and
the device's result."""
import sys
import numpy as np

records, out = sys.argv[1], sys.argv[2]
KEEP = 2048


def hash32(x):  # lowbias32, as study.hlsl and study2.hlsl
    x = x.astype(np.uint32)
    x ^= x >> np.uint32(16); x *= np.uint32(0x7feb352d)
    x ^= x >> np.uint32(15); x *= np.uint32(0x846ca68b)
    x ^= x >> np.uint32(16)
    return x


def make(s, g, lo, span, m):
    e = ((g % np.uint32(span)).astype(np.int64) + lo + 127).astype(np.uint32)
    return (np.uint32(s) & np.uint32(0x80000000)) | (e << np.uint32(23)) | (m & np.uint32(0x7fffff))


i = np.arange(KEEP, dtype=np.uint32)
h = hash32(i)
g = hash32(h ^ np.uint32(0x9e3779b9))
k = hash32(g ^ np.uint32(0x85ebca6b))
l = hash32(k)
anyb = (h & np.uint32(7)) == 0
X = np.where(anyb, g, make(h, g >> np.uint32(8), -24, 32, k))
Y = np.where(anyb, ~k, ((g & np.uint32(0xff000000)) >> np.uint32(1)) | (l & np.uint32(0x7fffff)))
B = np.where(anyb, l, make(0, k >> np.uint32(9), -10, 21, g))
E = make(l, h >> np.uint32(12), -24, 29, h ^ l)
Z = np.where(anyb, l, make(g, k >> np.uint32(3), -24, 31, h))  # study2.hlsl
zero = np.zeros(KEEP, np.uint32)
ve, vl, v2 = (np.load(f"{records}/{n}.npz") for n in ("vk_exp", "vk_log", "vk_study2"))
rows = [(X, zero, ve["Exp2"]), (X, zero, ve["Exp"]), (X, zero, ve["Sin"]), (X, zero, ve["Cos"]),
        (Y, zero, vl["Log2"]), (Y, zero, vl["Log"]), (Y, zero, vl["Log10"]), (B, E, vl["Pow"]),
        (X, zero, v2["Tan"]), (Z, zero, v2["Sinh"]), (Z, zero, v2["Cosh"])]
data = np.concatenate([np.stack([x, y, r[:KEEP]], axis=1).astype("<u4").ravel() for x, y, r in rows])
data.tofile(out)
print(f"{out}: {data.size // 3} records")

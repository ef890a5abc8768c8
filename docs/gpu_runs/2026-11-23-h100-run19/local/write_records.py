"""Run 19, on the session's machine: the kept Vulkan record (vk_study3.npz in RECORDS_DIR) and
study3.hlsl's inputs A, T, U (its hash, as analyze_run19.py rebuilds them) as raw little-endian
words in OUT_DIR, for check_tanh.cpp and atan_candidates.py. Usage: write_records.py RECORDS_DIR
OUT_DIR (numpy)."""
import sys
import numpy as np

records, out = sys.argv[1], sys.argv[2]


def hash32(x):
    x = x.astype(np.uint32)
    x ^= x >> np.uint32(16); x *= np.uint32(0x7feb352d)
    x ^= x >> np.uint32(15); x *= np.uint32(0x846ca68b)
    x ^= x >> np.uint32(16)
    return x


def make(s, g, lo, span, m):
    e = ((g % np.uint32(span)).astype(np.int64) + lo + 127).astype(np.uint32)
    return (np.uint32(s) & np.uint32(0x80000000)) | (e << np.uint32(23)) | (m & np.uint32(0x7fffff))


n = 1 << 19
i = np.arange(n, dtype=np.uint32)
h = hash32(i)
g = hash32(h ^ np.uint32(0x9e3779b9))
k = hash32(g ^ np.uint32(0x85ebca6b))
l = hash32(k)
kind = h & np.uint32(7)
uniform = ((((k >> np.uint32(8)).astype(np.float32) * np.float32(5.9604644775390625e-8))
            - np.float32(0.5)) * np.float32(2.25)).astype(np.float32).view(np.uint32)
inputs = {
    "A": np.where(kind == 0, g, np.where(kind == 1, uniform, make(h, g >> np.uint32(8), -24, 24, k))),
    "T": np.where(kind == 0, l, make(g, k >> np.uint32(3), -24, 31, h)),
    "U": np.where(kind == 2, ~l, make(k, l >> np.uint32(5), -24, 31, g)),
}
for name, words in inputs.items():
    words.astype("<u4").tofile(f"{out}/in_{name}.bin")
z = np.load(f"{records}/vk_study3.npz")
for name in z.files:
    z[name].astype("<u4").tofile(f"{out}/out_{name}.bin")
print("written")

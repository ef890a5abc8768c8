"""Run 18, on the session's machine: the kept Vulkan records (vk_exp.npz, vk_log.npz from call 1,
vk_study2.npz from call 3, in RECORDS_DIR) and their inputs (study.hlsl's and study2.hlsl's
hash) as raw little-endian words in OUT_DIR, for check_vk.cpp and check_s2.cpp. Usage:
write_records.py RECORDS_DIR OUT_DIR (numpy)."""
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


n = 1 << 20
i = np.arange(n, dtype=np.uint32)
h = hash32(i)
g = hash32(h ^ np.uint32(0x9e3779b9))
k = hash32(g ^ np.uint32(0x85ebca6b))
l = hash32(k)
anyb = (h & np.uint32(7)) == 0
inputs = {
    "X": np.where(anyb, g, make(h, g >> np.uint32(8), -24, 32, k)),
    "Y": np.where(anyb, ~k, ((g & np.uint32(0xff000000)) >> np.uint32(1)) | (l & np.uint32(0x7fffff))),
    "B": np.where(anyb, l, make(0, k >> np.uint32(9), -10, 21, g)),
    "E": make(l, h >> np.uint32(12), -24, 29, h ^ l),
    "Z": np.where(anyb, l, make(g, k >> np.uint32(3), -24, 31, h)),  # study2.hlsl
}
for name, words in inputs.items():
    words.astype("<u4").tofile(f"{out}/in_{name}.bin")
for file in ("vk_exp", "vk_log", "vk_study2"):
    z = np.load(f"{records}/{file}.npz")
    for name in z.files:
        z[name].astype("<u4").tofile(f"{out}/out_{name}.bin")
print("written")

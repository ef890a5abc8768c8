"""Run 19: the H100's tanh words that tests/emulator/test_h100_math.cpp holds the emulator to,
taken from this run's Vulkan record (vk_study3.npz, not kept in the repository: 8.8 MB), the
first 2048 threads. Run by hand with numpy:

    python3 extract_test_words.py RECORDS_DIR tests/emulator/data/h100_run19_words.bin

The file holds 2048 records of three little-endian uint32, in the format of run 18's file: x (T
of study3.hlsl, rebuilt from its hash as analyze_run19.py does), 0 and the device's tanh(x)."""
import sys
import numpy as np

records, out = sys.argv[1], sys.argv[2]
KEEP = 2048


def hash32(x):  # lowbias32, as study3.hlsl
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
t = np.where((h & np.uint32(7)) == 0, l, make(g, k >> np.uint32(3), -24, 31, h)).astype(np.uint32)
tanh = np.load(f"{records}/vk_study3.npz")["Tanh"][:KEEP]
data = np.stack([t, np.zeros(KEEP, np.uint32), tanh], axis=1).astype("<u4").ravel()
data.tofile(out)
print(f"{out}: {data.size // 3} records")

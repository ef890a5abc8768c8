"""Run 19 on the device: study3.yaml's words (asin, acos, atan, tanh, atan2 through Vulkan)
against CUDA's own functions (cuda_math.cu) under NVRTC's options. Usage: analyze_run19.py
RUN_DIR OUT_DIR; writes OUT_DIR/vk_study3.npz (the first 2^19 words of each result buffer; the
inputs are study3.hlsl's hash, checked here)."""
import os
import sys
import numpy as np

run, out = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
n = 1 << 24
NAMES = ("Asin", "Acos", "Atan", "Tanh", "Atan2")


def hash32(x):  # lowbias32, as study3.hlsl
    x = x.astype(np.uint32)
    x ^= x >> np.uint32(16); x *= np.uint32(0x7feb352d)
    x ^= x >> np.uint32(15); x *= np.uint32(0x846ca68b)
    x ^= x >> np.uint32(16)
    return x


def make(s, g, lo, span, m):
    e = ((g % np.uint32(span)).astype(np.int64) + lo + 127).astype(np.uint32)
    return (np.uint32(s) & np.uint32(0x80000000)) | (e << np.uint32(23)) | (m & np.uint32(0x7fffff))


def inputs(count):
    i = np.arange(count, dtype=np.uint32)
    h = hash32(i)
    g = hash32(h ^ np.uint32(0x9e3779b9))
    k = hash32(g ^ np.uint32(0x85ebca6b))
    l = hash32(k)
    kind = h & np.uint32(7)
    uniform = ((((k >> np.uint32(8)).astype(np.float32) * np.float32(5.9604644775390625e-8))
                - np.float32(0.5)) * np.float32(2.25)).astype(np.float32).view(np.uint32)
    a = np.where(kind == 0, g, np.where(kind == 1, uniform, make(h, g >> np.uint32(8), -24, 24, k)))
    t = np.where(kind == 0, l, make(g, k >> np.uint32(3), -24, 31, h))
    u = np.where(kind == 2, ~l, make(k, l >> np.uint32(5), -24, 31, g))
    return a.astype(np.uint32), t.astype(np.uint32), u.astype(np.uint32)


def load(name):
    return np.fromfile(f"{run}/{name}.bin", dtype=np.uint32)


a, t, u = inputs(n)
for name, want in (("A", a), ("T", t), ("U", u)):
    print(f"{name}: {np.count_nonzero(load(name) != want)} of {n} inputs differ from the replica", flush=True)
vk = {name: load(name) for name in NAMES}
np.savez_compressed(f"{out}/vk_study3.npz", **{k: v[: 1 << 19] for k, v in vk.items()})
print(f"vk_study3.npz: {os.path.getsize(f'{out}/vk_study3.npz')} bytes", flush=True)

import cupy as cp
src = open(f"{HERE}/cuda_math.cu").read()
da, dt, du = (cp.asarray(v) for v in (a, t, u))
for options in ((), ("-ftz=true",), ("--use_fast_math",), ("-ftz=true", "-prec-div=false")):
    mod = cp.RawModule(code=src, options=("--std=c++17",) + options)
    res = cp.empty(5 * n, dtype=cp.uint32)
    mod.get_function("CudaMath")(((n + 255) // 256,), (256,), (da, dt, du, res, np.uint32(n)))
    res = res.get().reshape(5, n)
    line = []
    for j, name in enumerate(NAMES):
        d, w = res[j], vk[name]
        same = (d == w) | (np.isnan(d.view(np.float32)) & np.isnan(w.view(np.float32)))
        line.append(f"{name} {np.count_nonzero(~same)}")
    print(f"CUDA with {' '.join(options) or 'no options'}: words that differ from Vulkan's: {', '.join(line)}", flush=True)

"""Run 19, on the session's machine: CUDA's atanf formula for |x| <= 1 (cuda_math.ptx), fused
and unfused, and the correctly rounded atan, against the kept Vulkan atan words with
2^-20 <= |x| <= 1. Usage: atan_candidates.py DIR (write_records.py's files; numpy)."""
import numpy as np
import sys
T = np.fromfile(sys.argv[1] + '/in_T.bin', '<u4'); W = np.fromfile(sys.argv[1] + '/out_Atan.bin', '<u4')
x = T.view(np.float32)
f32 = np.float32
def c(b): return np.uint32(b).view(np.float32)
def fma(a, b, cc): return (a.astype(np.float64) * b.astype(np.float64) + np.asarray(cc, np.float64)).astype(np.float32)
def mul(a, b): return (a * b).astype(np.float32)
def add(a, b): return (a + b).astype(np.float32)
sel = (np.abs(x) <= 1) & (np.abs(x) >= 2**-20)
a = np.abs(x[sel]); w = W[sel]
cs = [0x3B2090AA, 0xBC6BE14F, 0x3D23397E, 0xBD948A7A, 0x3DD76B21, 0xBE111E88, 0x3E4CAF60, 0xBEAAAA27]
def run(fused):
    x2 = mul(a, a)
    p = np.full_like(a, c(cs[0]))
    for k in cs[1:]:
        p = fma(p, x2, c(k)) if fused else add(mul(p, x2), c(k))
    q = mul(x2, p)
    r = fma(q, a, a) if fused else add(mul(q, a), a)
    return np.copysign(r, x[sel]).view(np.uint32)
for fused in (True, False):
    r = run(fused)
    d = r.astype(np.int64) - w.astype(np.int64)
    print('fused' if fused else 'unfused', 'differ', np.count_nonzero(d), 'of', d.size, dict(zip(*[v.tolist() for v in np.unique(np.clip(d,-5,5), return_counts=True)])))
ref = np.arctan(x[sel].astype(np.float64)).astype(np.float32).view(np.uint32)
d = ref.astype(np.int64) - w.astype(np.int64)
print('vs correctly rounded:', dict(zip(*[v.tolist() for v in np.unique(np.clip(d,-5,5), return_counts=True)])))

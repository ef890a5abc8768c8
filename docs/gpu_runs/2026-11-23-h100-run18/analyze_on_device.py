"""Run 18 on the device: the Vulkan run's words against the PTX approximations, and candidate
models of MUFU.EX2 and MUFU.LG2 held to the device over every fp32 bit pattern (mufu.cu, CuPy).
Usage: analyze_on_device.py RUN_DIR OUT_DIR. Writes OUT_DIR/vk_exp.npz and vk_log.npz (the first
2^19 words of each Vulkan result buffer; the inputs are the hash below) and tables.npz (the
device's ex2 at every k * 2^-24, k < 2^24, and lg2 over [1, 2) and [0.5, 1), each as wrapped
first differences of the bits: np.cumsum(..., dtype=np.uint32) gives the words back)."""
import os
import sys
import time
import traceback
import numpy as np

run, out = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
n = 1 << 24
KEEP = 1 << 19


def log(*a):
    print(*a, flush=True)


def hash32(x):  # lowbias32, as study.hlsl
    x = x.astype(np.uint32)
    x ^= x >> np.uint32(16); x *= np.uint32(0x7feb352d)
    x ^= x >> np.uint32(15); x *= np.uint32(0x846ca68b)
    x ^= x >> np.uint32(16)
    return x


def make(s, g, lo, span, m):
    e = ((g % np.uint32(span)).astype(np.int64) + lo + 127).astype(np.uint32)
    return (np.uint32(s) & np.uint32(0x80000000)) | (e << np.uint32(23)) | (m & np.uint32(0x7fffff))


def inputs():
    i = np.arange(n, dtype=np.uint32)
    h = hash32(i)
    g = hash32(h ^ np.uint32(0x9e3779b9))
    k = hash32(g ^ np.uint32(0x85ebca6b))
    l = hash32(k)
    anyb = (h & np.uint32(7)) == 0
    x = np.where(anyb, g, make(h, g >> np.uint32(8), -24, 32, k))
    y = np.where(anyb, ~k, ((g & np.uint32(0xff000000)) >> np.uint32(1)) | (l & np.uint32(0x7fffff)))
    b = np.where(anyb, l, make(0, k >> np.uint32(9), -10, 21, g))
    e = make(l, h >> np.uint32(12), -24, 29, h ^ l)
    return {"X": x.astype(np.uint32), "Y": y.astype(np.uint32), "B": b.astype(np.uint32),
            "E": e.astype(np.uint32)}


def load(name):
    return np.fromfile(f"{run}/{name}.bin", dtype=np.uint32)


def part(title, fn):
    log(f"\n== {title} ({time.strftime('%H:%M:%S')})")
    try:
        fn()
    except Exception:
        traceback.print_exc(file=sys.stdout)
        sys.stdout.flush()


state = {}


def check_inputs():
    ins = inputs()
    for name, want in ins.items():
        got = load(name)
        log(f"{name}: {np.count_nonzero(got != want)} of {n} inputs differ from the replica")
    state["in"] = ins
    outs = {name: load(name) for name in
            ("Exp2", "Exp", "Sin", "Cos", "Log2", "Log", "Log10", "Pow")}
    state["out"] = outs
    np.savez_compressed(f"{out}/vk_exp.npz", **{k: outs[k][:KEEP] for k in ("Exp2", "Exp", "Sin", "Cos")})
    np.savez_compressed(f"{out}/vk_log.npz", **{k: outs[k][:KEEP] for k in ("Log2", "Log", "Log10", "Pow")})
    for f in ("vk_exp.npz", "vk_log.npz"):
        log(f"{f}: {os.path.getsize(f'{out}/{f}')} bytes")


def cuda():
    import cupy as cp
    mod = cp.RawModule(code=open(f"{HERE}/mufu.cu").read(), options=("--std=c++17",))
    state["cp"], state["mod"] = cp, mod


def same(a, b):  # bitwise, every NaN equal to every NaN
    cp = state["cp"]
    fa, fb = a.view(cp.float32), b.view(cp.float32)
    return (a == b) | (cp.isnan(fa) & cp.isnan(fb))


def apply(op, bits):
    cp, mod = state["cp"], state["mod"]
    bits = cp.asarray(bits)
    r = cp.empty_like(bits)
    mod.get_function("ApplyOp")(((bits.size + 255) // 256,), (256,), (bits, r, np.int32(op), np.uint32(bits.size)))
    return r


def report(name, dev, cand, inp):
    cp = state["cp"]
    ok = same(dev, cand)
    bad = cp.nonzero(~ok)[0]
    line = f"{name}: {int(bad.size)} of {dev.size} words differ"
    if bad.size:
        d = (dev.view(cp.int32).astype(cp.int64) - cand.view(cp.int32).astype(cp.int64))[bad]
        vals, counts = cp.unique(cp.clip(d, -9, 9), return_counts=True)
        line += "; device minus candidate (clipped to 9): " + ", ".join(
            f"{int(v)}: {int(c)}" for v, c in zip(vals.get(), counts.get()))
        for j in bad[:4].get():
            line += f"\n    in {int(inp[j]):08x} ({float(np.uint32(inp[j]).view(np.float32))!r}) device {int(dev[j]):08x} candidate {int(cand[j]):08x}"
    log(line)


def vulkan_vs_ptx():
    cp = state["cp"]
    ins, outs = state["in"], {k: cp.asarray(v) for k, v in state["out"].items()}
    X, Y, B, E = (cp.asarray(ins[k]) for k in ("X", "Y", "B", "E"))
    f32 = lambda a: a.view(cp.float32)
    u32 = lambda a: a.view(cp.uint32)
    report("exp2 vs ex2.approx.ftz", outs["Exp2"], apply(0, X), ins["X"])
    report("exp2 vs ex2.approx", outs["Exp2"], apply(1, X), ins["X"])
    report("log2 vs lg2.approx.ftz", outs["Log2"], apply(2, Y), ins["Y"])
    report("log2 vs lg2.approx", outs["Log2"], apply(3, Y), ins["Y"])
    report("sin vs sin.approx.ftz", outs["Sin"], apply(4, X), ins["X"])
    report("cos vs cos.approx.ftz", outs["Cos"], apply(5, X), ins["X"])
    log2e, ln2, lg10_2 = np.float32(1.4426950408889634), np.float32(0.6931471805599453), np.float32(0.30102999566398120)
    report("exp vs ex2.approx.ftz(x * log2(e))", outs["Exp"], apply(0, u32(f32(X) * log2e)), ins["X"])
    report("log vs lg2.approx.ftz(x) * ln(2)", outs["Log"], u32(f32(apply(2, Y)) * ln2), ins["Y"])
    report("log10 vs lg2.approx.ftz(x) * log10(2)", outs["Log10"], u32(f32(apply(2, Y)) * lg10_2), ins["Y"])
    report("pow vs ex2.approx.ftz(e * lg2.approx.ftz(b))", outs["Pow"],
           apply(0, u32(f32(E) * f32(apply(2, B)))), ins["B"])


def grid(op, G):
    cp, mod = state["cp"], state["mod"]
    m = 1 << G
    r = cp.empty(m, dtype=cp.uint32)
    mod.get_function("Grid")(((m + 255) // 256,), (256,), (r, np.int32(op), np.float32(2.0 ** -G), np.uint32(m)))
    return r


def binade(op, base):
    cp, mod = state["cp"], state["mod"]
    m = 1 << 23
    r = cp.empty(m, dtype=cp.uint32)
    mod.get_function("Run")(((m + 255) // 256,), (256,), (r, np.int32(op), np.uint32(base), np.uint32(m)))
    return r


def show(models, miss, hist, ex, names):
    for m in range(models):
        log(f"{names[m]}: {int(miss[m])} of the bit patterns differ")
        h = hist[m * 256:(m + 1) * 256]
        nz = np.nonzero(h)[0]
        if nz.size:
            log("    by biased exponent of x: " + ", ".join(f"{int(e)}: {int(h[e])}" for e in nz[:40]))
        for s in range(min(16, 4)):
            x, d, mo = ex[m * 48 + 3 * s: m * 48 + 3 * s + 3]
            if x == 0 and d == 0 and mo == 0:
                break
            log(f"    x {x:08x} ({float(np.uint32(x).view(np.float32))!r}) device {d:08x} "
                f"({float(np.uint32(d).view(np.float32))!r}) model {mo:08x}")


def full_ex2():
    cp, mod = state["cp"], state["mod"]
    T = {G: grid(0, G) for G in (22, 23, 24)}
    state["T24"] = T[24]
    miss = cp.zeros(9, dtype=cp.uint64)
    hist = cp.zeros(9 * 256, dtype=cp.uint32)
    nex = cp.zeros(9, dtype=cp.uint32)
    ex = cp.zeros(9 * 48, dtype=cp.uint32)
    chunk = 1 << 30
    for c in range(4):
        threads = chunk // 64
        mod.get_function("TestEx2")((threads // 256,), (256,), (
            np.uint64(c * chunk), T[22].view(cp.float32), T[23].view(cp.float32),
            T[24].view(cp.float32), miss, hist, nex, ex))
    cp.cuda.Device().synchronize()
    names = [f"ex2.approx.ftz, G = {22 + m // 3}, {('floor', 'nearest', 'toward zero')[m % 3]}" for m in range(9)]
    show(9, miss.get(), hist.get(), ex.get(), names)


def full_lg2():
    cp, mod = state["cp"], state["mod"]
    R0, R1 = binade(2, 0x3f800000), binade(2, 0x3f000000)
    state["R0"], state["R1"] = R0, R1
    miss = cp.zeros(4, dtype=cp.uint64)
    hist = cp.zeros(4 * 256, dtype=cp.uint32)
    nex = cp.zeros(4, dtype=cp.uint32)
    ex = cp.zeros(4 * 48, dtype=cp.uint32)
    chunk = 1 << 30
    for c in range(2):
        threads = chunk // 64
        mod.get_function("TestLg2")((threads // 256,), (256,), (
            np.uint64(c * chunk), R0.view(cp.float32), R1.view(cp.float32), miss, hist, nex, ex))
    cp.cuda.Device().synchronize()
    names = ["lg2.approx.ftz = (float)e + R0[m], one rounding",
             "lg2.approx.ftz = e + (1 + R1[m]), to nearest",
             "lg2.approx.ftz = e + (1 + R1[m]), toward zero",
             "lg2.approx.ftz = e + R0[m], toward zero"]
    show(4, miss.get(), hist.get(), ex.get(), names)
    # How fine is the grid of lg2 over [1, 2)? The lowest set bit of each R0 word, as a power of 2.
    r0 = R0.get().view(np.float32).astype(np.float64)
    nz = r0[r0 != 0]
    frac_bits = np.zeros(nz.size, dtype=np.int64)
    v = nz.copy()
    for b in range(0, 60):
        integral = v == np.floor(v)
        frac_bits[~integral] = b + 1
        v = v * 2
    log(f"R0: finest grid 2^-{int(frac_bits.max())}; words on a 2^-24 grid: {int(np.count_nonzero(frac_bits <= 24))} of {nz.size}")


def save_tables():
    keep = {}
    for name in ("T24", "R0", "R1"):
        if name in state:
            w = state[name].get()
            keep[name] = np.diff(w, prepend=np.uint32(0)).astype(np.uint32)
    np.savez_compressed(f"{out}/tables.npz", **keep)
    log(f"tables.npz: {os.path.getsize(f'{out}/tables.npz')} bytes ({', '.join(keep)})")


part("inputs, and the records kept", check_inputs)
part("CUDA module", cuda)
part("the Vulkan words against the PTX approximations", vulkan_vs_ptx)
part("ex2.approx.ftz over every bit pattern", full_ex2)
part("lg2.approx.ftz over every positive normal bit pattern", full_lg2)
part("tables", save_tables)
log(f"\n== done ({time.strftime('%H:%M:%S')})")

"""Run 18, second call: the models of models.cu held to the device over every fp32 bit pattern
(CuPy). Usage: analyze_models.py OUT_DIR. Writes OUT_DIR/tables2.npz: the device's ex2 at every
k * 2^-23 (T23), lg2 over [1, 2) and [0.5, 1) (R0, R1) and sin and cos over the first quadrant
(Qs, Qc), each as wrapped first differences of the bits (np.cumsum(..., dtype=np.uint32) gives
the words back)."""
import os
import sys
import time
import traceback
import numpy as np
import cupy as cp

out = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
mod = cp.RawModule(code=open(f"{HERE}/models.cu").read(), options=("--std=c++17",))
fn = mod.get_function


def log(*a):
    print(*a, flush=True)


def hexf(u):
    return f"{int(u):08x} ({float(np.uint32(u).view(np.float32))!r})"


N23 = 1 << 23
T23 = cp.empty(N23, dtype=cp.float32)
fn("GridEx2")((N23 // 256,), (256,), (T23, np.uint32(N23)))
R0 = cp.empty(N23, dtype=cp.float32)
R1 = cp.empty(N23, dtype=cp.float32)
fn("BinadeLg2")((N23 // 256,), (256,), (R0, np.uint32(0x3f800000), np.uint32(N23)))
fn("BinadeLg2")((N23 // 256,), (256,), (R1, np.uint32(0x3f000000), np.uint32(N23)))
Qs = cp.full(N23, np.float32(np.nan), dtype=cp.float32)
Qc = cp.full(N23, np.float32(np.nan), dtype=cp.float32)
filled = cp.zeros(N23, dtype=cp.uint32)
conflicts = cp.zeros(1, dtype=cp.uint64)
nq = 0x3fc90fdc  # bit patterns of [0, pi/2]
for check in (0, 1):
    fn("FillQuadrant")(((nq + 255) // 256,), (256,), (np.uint32(nq), Qs, Qc, filled, np.int32(check), conflicts))
cp.cuda.Device().synchronize()
log(f"quadrant tables: {int(cp.count_nonzero(filled == 0))} of {N23} positions not reached; "
    f"{int(conflicts[0])} inputs whose sin or cos differs from another input's at the same position")

names = {0: "ex2.approx.ftz", 1: "lg2.approx.ftz", 2: "sin.approx.ftz", 3: "cos.approx.ftz"}
variants = {0: "negative r: symmetry of the magnitude", 1: "negative r: r - floor(r)",
            2: "negative r: ones' complement"}
for op, var in ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2)):
    try:
        A, B = (T23, T23) if op == 0 else (R0, R1) if op == 1 else (Qs, Qc)
        miss = cp.zeros(1, dtype=cp.uint64)
        hist = cp.zeros(512, dtype=cp.uint32)
        nan = cp.zeros(2, dtype=cp.uint64)
        nex = cp.zeros(1, dtype=cp.uint32)
        ex = cp.zeros(48, dtype=cp.uint32)
        chunk = 1 << 30
        for c in range(4):
            fn("Test")((chunk // 64 // 256,), (256,), (np.int32(op), np.int32(var), np.uint64(c * chunk),
                                                       A, B, miss, hist, nan, nex, ex))
        cp.cuda.Device().synchronize()
        label = names[op] + (f", {variants[var]}" if op >= 2 else "")
        log(f"\n{label}: {int(miss[0])} of 4294967296 bit patterns differ from the model; "
            f"NaN results: {int(nan[0])} are 0x7fffffff, {int(nan[1])} other")
        h = hist.get()
        nz = np.nonzero(h)[0]
        if nz.size:
            log("    by sign and biased exponent of x: " + ", ".join(
                f"{'-' if b >= 256 else '+'}{b & 255}: {int(h[b])}" for b in nz[:48]))
        e = ex.get()
        for s in range(min(int(nex[0]), 6)):
            log(f"    x {hexf(e[3 * s])} device {hexf(e[3 * s + 1])} model {hexf(e[3 * s + 2])}")
    except Exception:
        traceback.print_exc(file=sys.stdout)

keep = {k: np.diff(v.view(cp.uint32).get(), prepend=np.uint32(0)).astype(np.uint32)
        for k, v in (("T23", T23), ("R0", R0), ("R1", R1), ("Qs", Qs), ("Qc", Qc))}
np.savez_compressed(f"{out}/tables2.npz", **keep)
log(f"\ntables2.npz: {os.path.getsize(f'{out}/tables2.npz')} bytes")

"""Writes emulator/data/h100_*.z: the H100's fp32 rcp, sqrt and rsqrt over every significand,
from run 11's records (docs/gpu_runs/2026-11-23-h100-run11/*.npz), and its MUFU.EX2, MUFU.LG2,
MUFU.SIN and MUFU.COS tables from run 18's (docs/gpu_runs/2026-11-23-h100-run18/tables2.npz).
Run once by hand after a new measurement (it needs numpy; the build does not):

    python3 tools/device/make_h100_tables.py

Each file is zlib data holding one 2-bit code per entry, four entries a byte, entry k in bits
2*(k % 4) of byte k / 4: the device's result bits minus a reference's bits, plus a bias.
  rcp:   k < 2^23, x = 1 + k * 2^-23, reference 1.0f / x (IEEE), bias 1.
  sqrt:  k < 2^24, x = asfloat(0x3f800000 + k) in [1, 4), reference sqrtf(x), bias 1.
  rsqrt: the same x, reference (float)(1.0 / sqrt((double)x)), bias 2.
  ex2:   k < 2^23, MUFU.EX2 at k * 2^-23 (run 18), reference exp2_reference(k) below, bias 1.
emulator/nvidia_tables.cpp decodes them with the same references.

Run 18's other tables are the device's words themselves: zlib data holding the wrapped first
differences of the words as little-endian uint32 (a running sum gives them back).
  lg2:    2^24 words, lg2 of asfloat(0x3f800000 + m) (the first 2^23) and of
          asfloat(0x3f000000 + m) (the next 2^23), m < 2^23.
  sin:    2^23 words, MUFU.SIN at p * 2^-25 of a turn, p < 2^23: the first quadrant. MUFU.COS
          there is MUFU.SIN at 2^23 - 1 - p (every p of run 18's table; asserted below)."""
import os
import zlib
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = os.path.join(ROOT, "docs/gpu_runs/2026-11-23-h100-run11")
RUN18 = os.path.join(ROOT, "docs/gpu_runs/2026-11-23-h100-run18")


def device(name, ref):
    """The device's words of run 11's buffer NAME: reference + delta, or the recorded bits."""
    z = np.load(os.path.join(RUN, f"{name}.npz"))
    bits = ref.view(np.int32).astype(np.int64) + z["delta"].astype(np.int64)
    bits[z["big_index"]] = z["big_bits"].view(np.int32)
    return bits


def write(name, dev, ref, bias):
    code = dev - ref.view(np.int32).astype(np.int64) + bias
    assert code.min() >= 0 and code.max() <= 3, f"{name}: a difference does not fit 2 bits"
    code = code.astype(np.uint8)
    packed = code[0::4] | (code[1::4] << 2) | (code[2::4] << 4) | (code[3::4] << 6)
    data = zlib.compress(packed.astype(np.uint8).tobytes(), 9)
    with open(os.path.join(ROOT, f"emulator/data/h100_{name}.z"), "wb") as f:
        f.write(data)
    values, counts = np.unique(code.astype(int) - bias, return_counts=True)
    print(f"h100_{name}.z: {len(data)} bytes; differences {dict(zip(values.tolist(), counts.tolist()))}")


k = np.arange(1 << 24, dtype=np.uint32)
x = (np.uint32(0x3f800000) + k).view(np.float32)  # [1, 4); its first 2^23 are [1, 2)
with np.errstate(all="ignore"):
    rcp_ref = np.float32(1) / x[: 1 << 23]
    sqrt_ref = np.sqrt(x)
    rsqrt_ref = (1.0 / np.sqrt(x.astype(np.float64))).astype(np.float32)
# Rcp's first 2^23 threads are x = 1.m; Sqrt and Rsqrt's 2^24 are [1, 4) (division.hlsl).
rcp_ref_full = np.concatenate([rcp_ref, np.zeros(1 << 23, np.float32)])
write("rcp", device("Rcp", rcp_ref_full)[: 1 << 23], rcp_ref, 1)
write("sqrt", device("Sqrt", sqrt_ref), sqrt_ref, 1)
write("rsqrt", device("Rsqrt", rsqrt_ref), rsqrt_ref, 2)


def write_words(name, words):
    diffs = np.diff(words.astype(np.uint32), prepend=np.uint32(0)).astype("<u4")
    data = zlib.compress(diffs.tobytes(), 9)
    with open(os.path.join(ROOT, f"emulator/data/h100_{name}.z"), "wb") as f:
        f.write(data)
    print(f"h100_{name}.z: {len(data)} bytes; {words.size} words")


t = np.load(os.path.join(RUN18, "tables2.npz"))
words = {k: np.cumsum(t[k], dtype=np.uint32) for k in t.files}


def exp2_reference(k):
    """2^(k * 2^-23) rounded to float, from a Taylor series of e^(k * 2^-23 * ln 2) in double,
    Horner's scheme, each step one IEEE operation (no library call, so every machine gets the
    same bits; nvidia_tables.cpp computes it the same way). Within 1e-16 of the true value."""
    ln2 = float.fromhex("0x1.62e42fefa39efp-1")
    coefficients, factorial = [], 1.0
    for n in range(18):
        factorial *= max(n, 1)
        coefficients.append(1.0 / factorial)
    y = (k.astype(np.float64) / 8388608.0) * ln2
    r = np.full_like(y, coefficients[17])
    for c in reversed(coefficients[:17]):
        r = r * y + c
    return r.astype(np.float32)


write("ex2", words["T23"].view(np.int32).astype(np.int64), exp2_reference(np.arange(1 << 23)), 1)
write_words("lg2", np.concatenate([words["R0"], words["R1"]]))
assert (words["Qc"] == words["Qs"][::-1]).all(), "MUFU.COS is no longer MUFU.SIN mirrored"
write_words("sin", words["Qs"])

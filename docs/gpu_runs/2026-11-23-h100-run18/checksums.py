"""Run 18, third call: checksums of the device's ex2, lg2, sin and cos over every fp32 bit pattern
(checksums.cu), 512 per function (one per sign and exponent of x). Usage: checksums.py OUT_DIR;
writes OUT_DIR/checksums.txt, one line per function: the name and 512 hexadecimal sums."""
import os
import sys
import numpy as np
import cupy as cp

HERE = os.path.dirname(os.path.abspath(__file__))
mod = cp.RawModule(code=open(f"{HERE}/checksums.cu").read(), options=("--std=c++17",))
lines = []
for op, name in enumerate(("exp2", "log2", "sin", "cos")):
    sums = cp.zeros(512, dtype=cp.uint64)
    chunk = 1 << 30
    for c in range(4):
        mod.get_function("Checksum")((chunk // 64 // 256,), (256,), (np.int32(op), np.uint64(c * chunk), sums))
    lines.append(name + " " + " ".join(f"{int(v):016x}" for v in sums.get()))
    print(name, "done", flush=True)
open(f"{sys.argv[1]}/checksums.txt", "w").write("\n".join(lines) + "\n")

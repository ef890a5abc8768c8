"""Run 18, third call: the first 2^20 words of study2.yaml's buffers into OUT_DIR/vk_study2.npz.
Usage: keep_samples.py RUN_DIR OUT_DIR."""
import sys
import numpy as np

run, out = sys.argv[1], sys.argv[2]
keep = {n: np.fromfile(f"{run}/{n}.bin", dtype=np.uint32)[: 1 << 20] for n in ("Tan", "Sinh", "Cosh")}
np.savez_compressed(f"{out}/vk_study2.npz", **keep)
print({n: int(v.size) for n, v in keep.items()})

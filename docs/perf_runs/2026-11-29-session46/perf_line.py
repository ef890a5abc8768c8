#!/usr/bin/env python3
"""perf_line.py -- session 46: where a kernel's *time* goes, by source line, from a perf profile
(cpu-clock samples), as session 43's per_line.py does for callgrind's instruction counts (it
imports that script's addr2line helper; run from the repository root or fix the path below).

  STAGE=6 REPS=4000 perf record -e cpu-clock -c 50000 -o perf.data ./stages_np
  perf_line.py perf.data stages_np statement_stages.cpp [statement_stages.cpp:LINE]

The binary must be built with -no-pie -fno-pie, so that perf's sample addresses are the
binary's own. Prints each line's (or, with LINE, each emulator/intrinsics frame's) share of the
binary's samples.
"""
import sys, subprocess, importlib.util, collections
spec = importlib.util.spec_from_file_location('pl', 'docs/perf_runs/2026-11-29-session43/per_line.py')
pl = importlib.util.module_from_spec(spec); spec.loader.exec_module(pl)
data, binary, source = sys.argv[1], sys.argv[2], sys.argv[3]
want = sys.argv[4] if len(sys.argv) > 4 else None
out = subprocess.run(['perf','script','-i',data,'-F','ip,dso'],capture_output=True,text=True).stdout
costs = collections.Counter()
for l in out.split('\n'):
    f=l.split()
    if len(f)>=2 and binary in f[1]: costs[int(f[0],16)]+=1
# perf ips for a PIE: map via dso offset; assume non-PIE? check
frames = pl.frames_of(binary, list(costs))
tot=sum(costs.values())
per=collections.Counter()
for a,c in costs.items():
    chain=frames.get(a,[])
    kl = next((f.split('/')[-1] for f in chain if source in f), None)
    if want is None: per[kl or 'other:'+(chain[-1].split('/')[-1] if chain else '?')]+=c
    elif kl==want:
        inner = next(('/'.join(f.split('/')[-2:]) for f in chain if '/emulator/' in f or '/intrinsics/' in f), chain[0].split('/')[-1])
        per[inner]+=c
for k,c in sorted(per.items(), key=lambda kv:-kv[1]):
    if c/tot>=0.003: print(f'{100*c/tot:6.1f}%  {k}')

#!/usr/bin/env python3
"""worker_per_line.py -- session 47: a perf profile of pinned_split.cpp (session 46) split by who
ran the samples: `fiber` (the worker's groups in flight), `lambda#4` (the calling thread's groups
in the two-core dispatches) and `lambda#6` (the one-thread dispatches); for each, the share of
its samples by line of free_ids_wave.h. The lambda numbers are GCC's for that build.

  g++ -O3 -g -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
    -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -no-pie -fno-pie -I. \
    docs/perf_runs/2026-11-29-session46/pinned_split.cpp -o pinned_split_np \
    build/default/libwaveemu.a -ltbb -lhwy -lboost_context -lfmt -lz
  perf record -e cpu-clock -F 4000 -o ps.data ./pinned_split_np 4 24 64
  python3 docs/perf_runs/2026-11-29-session47/worker_per_line.py ps.data pinned_split_np \
    free_ids_wave.h

Run from the repository root (it imports session 43's per_line.py for addr2line).
"""
import sys, subprocess, importlib.util, collections
spec = importlib.util.spec_from_file_location('pl', 'docs/perf_runs/2026-11-29-session43/per_line.py')
pl = importlib.util.module_from_spec(spec); spec.loader.exec_module(pl)
data, binary, source = sys.argv[1], sys.argv[2], sys.argv[3]
out = subprocess.run(['perf','script','-i',data,'-F','tid,ip,sym'],capture_output=True,text=True).stdout
costs = collections.defaultdict(collections.Counter)
for l in out.split('\n'):
    f=l.split(None,2)
    if len(f)<3: continue
    sym=f[2]
    key = 'fiber' if 'GroupsInFlight&' in sym else ('lambda#6' if 'lambda(unsigned long, unsigned long)#6' in sym else ('lambda#4' if '#4}' in sym else None))
    if key: costs[key][int(f[1],16)]+=1
for key,c in costs.items():
    frames = pl.frames_of(binary, list(c))
    tot=sum(c.values()); per=collections.Counter()
    for a,n in c.items():
        chain=frames.get(a,[])
        kl = next((x.split('/')[-1] for x in chain if source in x), None)
        per[kl or 'other:'+(chain[-1].split('/')[-1] if chain else '?')]+=n
    print('==',key,tot)
    for k,n in sorted(per.items(), key=lambda kv:-kv[1]):
        if n/tot>=0.01: print(f'{100*n/tot:6.1f}% {n:6d} {k}')

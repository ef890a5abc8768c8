#!/usr/bin/env python3
"""worker_split.py LINES CALLER_TID CALLER_GROUPS WORKER_TID WORKER_GROUPS: a perf report by
thread and source line (perf report --sort pid,srcline -g none) summed into the kernel's
statements, the group state (emulator/exec.h), the fibers (Boost.Context, groups_in_flight.h,
dispatch.cpp and unresolved code) and the rest (setup: table, reference, page faults), then
divided by each thread's groups and put against the calling thread's cost of one group."""
import collections, re, sys
lines, ct, cg, wt, wg = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
setup = ('random.tcc', 'free_ids_reference', 'free_ids_host', 'worker_profile.cpp', 'stl_vector',
         'uniform_int', 'new_allocator', 'stl_algo', 'stl_heap')
cat = collections.defaultdict(collections.Counter)
for line in open(lines):
    m = re.match(r'\s*([\d.]+)%\s+(\d+):\S+\s+(.*)$', line.rstrip())
    if not m:
        continue
    share, tid, where = float(m.group(1)), m.group(2), m.group(3).strip()
    f = where.split(':')[0]
    if any(k in where for k in setup) or '+' in where:  # "symbol+offset": kernel (OS) code
        c = 'setup and OS'
    elif f in ('??', 'dispatch.cpp', 'groups_in_flight.h') or 'fiber' in f or 'context' in f:
        c = 'fibers'
    elif f == 'exec.h':
        c = 'group state'
    else:
        c = 'statements'
    cat[tid][c] += share
base = sum(v for k, v in cat[ct].items() if k != 'setup and OS') / cg
for tid, groups, name in ((ct, cg, 'calling thread'), (wt, wg, 'worker')):
    parts = {k: v / groups / base for k, v in cat[tid].items() if k != 'setup and OS'}
    print(f"{name} ({groups} groups): a group costs {sum(parts.values()):.2f} of the calling "
          f"thread's: " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(parts.items())))

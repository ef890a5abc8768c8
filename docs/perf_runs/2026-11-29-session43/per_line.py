#!/usr/bin/env python3
"""per_line.py -- where a kernel's instructions go, by source line (session 43).

Reads a callgrind profile made with per-instruction counts, e.g.
  STAGE=6 REPS=16 valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.out ./stages
and asks addr2line (-i: with the chain of inlined calls) where each executed instruction of the
binary comes from. Without LINE it sums the counts by the innermost frame in SOURCE (the
kernel's own statement); with LINE (as SOURCE:NUMBER) it takes only that statement's
instructions and sums them by the innermost frame in emulator/ or intrinsics/. Counts are
divided by GROUPS (REPS x 1024 for statement_stages.cpp) to give instructions per group; lines
that are not the kernel's (the table, the reference) show under "other:".

Usage: per_line.py PROFILE BINARY SOURCE GROUPS [LINE]
"""
import collections
import re
import subprocess
import sys


def self_costs(path, binary_name):
    """Exclusive instruction counts per address of the object whose name contains binary_name."""
    names, costs = {}, collections.Counter()
    current, last, skip = None, 0, False
    for line in open(path):
        line = line.rstrip('\n')
        m = re.match(r'^(c?ob)=\((\d+)\)(?: (.*))?$', line)
        if m:
            kind, idx, name = m.groups()
            if name:
                names[idx] = name
            if kind == 'ob':
                current = names.get(idx, '?')
            continue
        if line.startswith('calls='):
            skip = True  # the next cost line is the call's inclusive cost
            continue
        if not line or line[0] not in '0123456789+-*':
            continue
        fields = line.split()
        tok = fields[0]
        if tok == '*':
            addr = last
        elif tok[0] in '+-':
            addr = last + (1 if tok[0] == '+' else -1) * int(tok[1:], 0)
        else:
            addr = int(tok, 0)
        last = addr
        if skip:
            skip = False
            continue
        if current and binary_name in current and len(fields) >= 3:
            costs[addr] += int(fields[2])
    return costs


def frames_of(binary, addrs):
    """addr -> list of 'file:line' frames, innermost first."""
    out = subprocess.run(['addr2line', '-i', '-e', binary, '-a'],
                         input='\n'.join(hex(a) for a in addrs),
                         capture_output=True, text=True).stdout
    result = {}
    for block in out.split('0x')[1:]:
        lines = block.strip().split('\n')
        result[int(lines[0], 16)] = [f.split(' ')[0] for f in lines[1:]]
    return result


def main():
    path, binary, source, groups = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    want = sys.argv[5] if len(sys.argv) > 5 else None
    costs = self_costs(path, binary.split('/')[-1])
    frames = frames_of(binary, [a for a, c in costs.items() if c])
    per = collections.Counter()
    for addr, chain in frames.items():
        kernel_line = next((f.split('/')[-1] for f in chain if source in f), None)
        if want is None:
            per[kernel_line or 'other:' + (chain[-1].split('/')[-1] if chain else '?')] += costs[addr]
        elif kernel_line == want:
            inner = next(('/'.join(f.split('/')[-2:]) for f in chain
                          if '/emulator/' in f or '/intrinsics/' in f), chain[0].split('/')[-1])
            per[inner] += costs[addr]
    for key, count in sorted(per.items(), key=lambda kv: -kv[1]):
        if count / groups >= 1:
            print(f'{count / groups:9.1f}  {key}')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# check_double_ops.py DIR -- compares the Out.bin that `waveemu run double_ops.yaml --backend vulkan
# --out DIR` wrote with IEEE double arithmetic (Python's / is correctly rounded; fma is the exact
# a*b+c rounded once, through fractions). HLSL's sqrt takes float (float_like), so glslang converts
# the double to float and back: that slot is checked against float sqrt, correctly rounded. Prints
# each rule's count of differing words and the first of them.
import math

import numpy as np
import struct
import sys
from fractions import Fraction
from pathlib import Path

d = Path(sys.argv[1])


def doubles(name):
    raw = (d / f'{name}.bin').read_bytes()
    return list(struct.unpack(f'<{len(raw) // 8}d', raw))


def bits(v):
    return struct.unpack('<Q', struct.pack('<d', v))[0]


A, B, C, Out = doubles('A'), doubles('B'), doubles('C'), doubles('Out')


def div(a, b):
    return a / b if b != 0 else math.copysign(math.inf, a * b) if a != 0 else math.nan


def fma(a, b, c):
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def float_sqrt(a):
    return float(np.float32(math.sqrt(float(np.float32(a)))))  # exact: 53 >= 2 * 24 + 2 bits


rules = [(0, 'a / b', lambda i: div(A[i], B[i])),
         (1, 'float(sqrt(float(abs(a))))', lambda i: float_sqrt(abs(A[i]))),
         (2, 'rcp(b) = 1 / b', lambda i: div(1.0, B[i])),
         (3, 'mad(a, b, c) fused', lambda i: fma(A[i], B[i], C[i])),
         (3, 'mad(a, b, c) as a * b + c', lambda i: A[i] * B[i] + C[i])]
for slot, name, rule in rules:
    bad = [(i, Out[slot * 64 + i], rule(i)) for i in range(64)
           if bits(Out[slot * 64 + i]) != bits(rule(i))]
    print(f'slot {slot} {name}: {len(bad)} of 64 differ')
    for i, got, want in bad[:8]:
        print(f'  thread {i}: device {got!r} ({bits(got):#018x}), IEEE {want!r} ({bits(want):#018x})')

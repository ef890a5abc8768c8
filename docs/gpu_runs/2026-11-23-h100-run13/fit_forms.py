#!/usr/bin/env python3
# fit_forms.py GOLDEN_DIR -- run 13: which form of dot, cross, lerp and reflect gives a device's
# probe_geometry words (GOLDEN_DIR = tests/golden/nvidia/probe_geometry or .../lavapipe/...).
# Every candidate is computed in float32 with numpy, a fused multiply-add exactly through
# fractions (rounded once to float32, ties to even), and scored by how many of threads 0-59 it
# matches (60-63 are the edge vectors). The forms that need the H100's sqrt and division tables
# (length, normalize, distance, smoothstep, refract) were fitted in C++ against the emulator's
# tables instead; test_golden holds the model to every word of both devices.
import itertools
import sys
from fractions import Fraction

import numpy as np

d = sys.argv[1]
IN = np.fromfile(f'{d}/In.bin', dtype='<u4').reshape(13, 64).view(np.float32)
OUT = np.fromfile(f'{d}/Out.bin', dtype='<u4').reshape(26, 64)
f = np.float32
np.seterr(all='ignore')


def round_f32(x):
    """The float32 nearest the rational x (normal range; ties to even)."""
    if x == 0:
        return f(0)
    sign = -1 if x < 0 else 1
    x = abs(x)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    e = max(e, -126)
    q = x / Fraction(2) ** (e - 23)
    n = q.numerator // q.denominator
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2):
        n += 1
    return f(sign * float(n) * 2.0 ** (e - 23))


def fma1(x, y, z):
    if not np.isfinite([x, y, z]).all():  # the edge threads, which are not scored
        return f(float(x) * float(y) + float(z))
    return round_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))


def fma(a, b, c):
    return np.array([fma1(x, y, z) for x, y, z in zip(a, b, c)], dtype=np.float32)


def score(slot, value, threads=range(60)):
    got = value.astype(np.float32).view(np.uint32)
    return sum(int(got[t] == OUT[slot][t]) for t in threads)


def report(slot, what, candidates, threads=range(60)):
    scored = sorted(((score(slot, v, threads), name) for name, v in candidates), reverse=True)
    print(f'slot {slot:2d} {what}: ' + ', '.join(f'{name} {s}/{len(threads)}' for s, name in scored[:4]))


A, B = IN[0:4], IN[4:8]
T = IN[8]
x, y, z, w = A
X, Y, Z, W = B


def chain(order, pa=A, pb=B):
    acc = pa[order[0]] * pb[order[0]]
    for i in order[1:]:
        acc = fma(pa[i], pb[i], acc)
    return acc


def left(n, pa=A, pb=B):
    acc = pa[0] * pb[0]
    for i in range(1, n):
        acc = acc + pa[i] * pb[i]
    return acc


for slot, n in ((0, 2), (1, 3), (2, 4)):
    cands = [('fused ' + ''.join('xyzw'[i] for i in o), chain(o)) for o in itertools.permutations(range(n))]
    cands.append(('left to right, unfused', left(n)))
    if n == 4:
        cands += [('fma(x,X,yY) + fma(z,Z,wW)', fma(x, X, y * Y) + fma(z, Z, w * W)),
                  ('fma(y,Y,xX) + fma(w,W,zZ)', fma(y, Y, x * X) + fma(w, W, z * Z)),
                  ('(xX + yY) + (zZ + wW)', (x * X + y * Y) + (z * Z + w * W))]
    report(slot, f'dot of {n}', cands)
for k, (p, q, r, s) in enumerate([(y, Z, z, Y), (z, X, x, Z), (x, Y, y, X)]):
    report(13 + k, 'cross', [('p*q - r*s', p * q - r * s), ('fma(p, q, -(r*s))', fma(p, q, -(r * s))),
                             ('fma(-r, s, p*q)', fma(-r, s, p * q))])
one = f(1)
report(16, 'lerp', [('a + t*(b-a)', x + T * (X - x)), ('fma(t, b-a, a)', fma(T, X - x, x)),
                    ('a*(1-t) + b*t', x * (one - T) + X * T), ('fma(b, t, a*(1-t))', fma(X, T, x * (one - T))),
                    ('fma(a, 1-t, b*t)', fma(x, one - T, X * T)), ('fma(t, b, fma(-t, a, a))', fma(T, X, fma(-T, x, x)))],
       range(64))
# reflect with the H100's dot (fused y, x, z) and with the left-to-right one.
for name, d3 in (('fused yxz dot', chain((1, 0, 2))), ('left-to-right dot', left(3))):
    for k, (ic, nc) in enumerate([(x, X), (y, Y), (z, Z)]):
        report(18 + k, f'reflect, {name}', [('i - (2d)*n', ic - (f(2) * d3) * nc),
                                            ('fma(-(2d), n, i)', fma(-(f(2) * d3), nc, ic))])

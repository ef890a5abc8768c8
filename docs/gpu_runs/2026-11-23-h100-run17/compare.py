#!/usr/bin/env python3
# compare.py -- run 17: per slot of probe_transcendentals, how many of the H100's 64 words the
# emulator's nvidia profile (C library in float) gives, and how far the others are in ulps.
# Usage: compare.py H100_OUT.bin EMULATOR_OUT.bin
import struct
import sys

NAMES = ['exp2(a)', 'log2(a)', 'sin(a)', 'cos(a)', 'exp(a)', 'log(a)', 'log10(a)', 'pow(a, y)',
         'tan(a)', 'asin(b)', 'acos(b)', 'atan(a)', 'atan2(y, a)', 'sinh(b)', 'cosh(b)',
         'tanh(b)', 'atan(b)', 'pow(abs(b), y)', 'pow(b, 4.0)', 'pow(2.0, y)', 'sincos s(b)',
         'sincos c(b)']


def words(path):
    data = open(path, 'rb').read()
    return struct.unpack('<%dI' % (len(data) // 4), data)


def ordered(u):  # float bits to an integer that orders like the float (ulp distance)
    return u if u < 0x80000000 else 0x80000000 - u


def is_nan(u):
    return (u & 0x7f800000) == 0x7f800000 and (u & 0x7fffff) != 0


h100, emu = words(sys.argv[1]), words(sys.argv[2])
total = 0
print('slot  function          differ  (NaN)  max ulps (numbers)')
for s, name in enumerate(NAMES):
    differ = nan = 0
    worst = 0
    for t in range(64):
        d, e = h100[s * 64 + t], emu[s * 64 + t]
        if d == e:
            continue
        differ += 1
        if is_nan(d) or is_nan(e):
            nan += 1
        else:
            worst = max(worst, abs(ordered(d) - ordered(e)))
    total += differ
    print(f'{s:4}  {name:16}  {differ:6}  {nan:5}  {worst}')
print(f'total {total} of {len(h100)} words differ')

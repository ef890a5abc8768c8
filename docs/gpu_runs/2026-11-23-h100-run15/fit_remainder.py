#!/usr/bin/env python3
# fit_remainder.py -- run 15: which expression of % and fmod each device's words are. Reads
# probe_remainder's In.bin and Out.bin (fp32) and double_remainder's A, B and Out (fp64) from an
# unpacked records tarball and counts, per slot, the words each candidate form gives exactly
# (every rounding computed exactly with fractions). Usage: fit_remainder.py DIR
import math
import struct
import sys
from fractions import Fraction
from pathlib import Path

d = Path(sys.argv[1])


def words(path, fmt):
    b = path.read_bytes()
    size = struct.calcsize(fmt)
    return [struct.unpack(fmt, b[i:i + size])[0] for i in range(0, len(b), size)]


def round_to(x, mant, emin):
    """Fraction x rounded to nearest-even in a binary format with `mant` significand bits and
    smallest normal exponent emin; returns a Python float (inf on overflow)."""
    if x == 0:
        return 0.0
    s = -1 if x < 0 else 1
    x = abs(x)
    e = math.floor(math.log2(x.numerator) - math.log2(x.denominator))
    while Fraction(2) ** e > x:
        e -= 1
    while Fraction(2) ** (e + 1) <= x:
        e += 1
    e = max(e, emin)
    q = x / Fraction(2) ** (e - mant + 1)
    n = q.numerator // q.denominator
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2):
        n += 1
    v = Fraction(n) * Fraction(2) ** (e - mant + 1)
    try:
        return s * float(v)
    except OverflowError:
        return s * math.inf


class Fmt:
    def __init__(self, mant, emin, bits_fmt, float_fmt):
        self.mant, self.emin, self.bits_fmt, self.float_fmt = mant, emin, bits_fmt, float_fmt

    def r(self, x):  # an exact value rounded to the format (overflow gives inf)
        return self.fit(round_to(x, self.mant, self.emin))

    def fit(self, v):  # a value above the format's largest finite one is inf
        emax = -self.emin + 1
        largest = (2 - Fraction(2) ** (1 - self.mant)) * Fraction(2) ** emax
        if math.isfinite(v) and abs(Fraction(v)) > largest:
            return math.copysign(math.inf, v)
        return v

    def bits(self, v):
        return struct.unpack(self.bits_fmt, struct.pack(self.float_fmt, v))[0]


F32 = Fmt(24, -126, '<I', '<f')
F64 = Fmt(53, -1022, '<Q', '<d')


def op(f, fn, *args):
    """fn on exact values of finite args, rounded in f; IEEE specials through Python floats."""
    if all(math.isfinite(a) for a in args):
        try:
            return f.r(fn(*[Fraction(a) for a in args]))
        except ZeroDivisionError:
            pass
    try:
        v = fn(*args)
    except ZeroDivisionError:
        a, b = args
        v = math.nan if a == 0 or math.isnan(a) else math.copysign(math.inf, a) * math.copysign(1, b)
    except (ValueError, OverflowError):
        v = math.nan
    return f.fit(float(v))


def div(f, a, b): return op(f, lambda x, y: x / y, a, b)
def mul(f, a, b): return op(f, lambda x, y: x * y, a, b)
def sub(f, a, b): return op(f, lambda x, y: x - y, a, b)
def fma(f, a, b, c): return op(f, lambda x, y, z: x * y + z, a, b, c)


def floor(v): return v if not math.isfinite(v) else float(math.floor(v)) if v != 0 else v


def fract(f, v): return sub(f, v, floor(v))


FORMS = {
    'a - b*floor(a/b)': lambda f, a, b: sub(f, a, mul(f, b, floor(div(f, a, b)))),
    'fma(-b, floor(a/b), a)': lambda f, a, b: fma(f, -b, floor(div(f, a, b)), a),
    'b * fract(a/b)': lambda f, a, b: mul(f, b, fract(f, div(f, a, b))),
    'exact, sign of a (C fmod)': lambda f, a, b: math.fmod(a, b) if math.isfinite(a) and b != 0 and not math.isnan(b) else math.nan,
}


def same(f, got, want):
    if math.isnan(got) and math.isnan(want):
        return True
    return f.bits(got) == f.bits(want)


def fit(f, name, a, b, out):
    print(f'{name}: {len(out)} words')
    for form, fn in FORMS.items():
        misses = [i for i in range(len(out)) if not same(f, fn(f, a[i], b[i]), out[i])]
        print(f'  {form:28s} {len(out) - len(misses):3d}/{len(out)}'
              + (f'  misses at {misses[:12]}' if misses else ''))


raw = words(d / 'remainder' / 'In.bin', '<f')
A, B = raw[:64], raw[64:128]
out = words(d / 'remainder' / 'Out.bin', '<f')
pairs = {0: (A, B), 1: (A, B),
         2: (A, [B[(t * 7 + 3) % 64] for t in range(64)]),
         3: ([A[(t * 13 + 5) % 64] for t in range(64)], B)}
for slot in range(4):
    a, b = pairs[slot]
    fit(F32, f'fp32 slot {slot} ({"%" if slot in (0, 2) else "fmod"})', a, b, out[slot * 64:slot * 64 + 64])
fit(F64, 'fp64 %', words(d / 'double_remainder' / 'A.bin', '<d'),
    words(d / 'double_remainder' / 'B.bin', '<d'), words(d / 'double_remainder' / 'Out.bin', '<d'))

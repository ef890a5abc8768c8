# Checks one rule against every word of probe_denormals on a device: fp32 operands that are
# denormal become a zero of their sign, results that would be denormal too (flush = True), or
# nothing is flushed (flush = False).
import struct, sys
def words(p):
    b = open(p, 'rb').read(); return struct.unpack('<%dI' % (len(b) // 4), b)
def f(u): return struct.unpack('<f', struct.pack('<I', u))[0]
def u(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def denormal(w): return (w & 0x7f800000) == 0 and (w & 0x7fffff) != 0
def flushed(w, flush): return (w & 0x80000000) if flush and denormal(w) else w
D = [0x00000000, 0x80000000, 0x00000001, 0x80400000, 0x007fffff, 0x00800000, 0x80800000, 0x3f000000]
def model(flush):
    out = []
    ops = [lambda a, b: u(f(a) + f(b)), lambda a, b: u(f(a) - f(b)), lambda a, b: u(f(a) * f(b)),
           lambda a, b: u(f(a) * 1.0), lambda a, b: int(f(a) == f(b)), lambda a, b: int(f(a) < f(b)),
           lambda a, b: a ^ 0x80000000, lambda a, b: a & 0x7fffffff]
    for s, op in enumerate(ops):
        for t in range(64):
            a, b = flushed(D[t // 8], flush), flushed(D[t % 8], flush)
            r = op(a, b)
            out.append(r if s in (4, 5) else flushed(r, flush))
    return out
for path, flush in zip(sys.argv[1::2], sys.argv[2::2]):
    got = words(path); want = model(flush == 'flush')
    bad = [i for i in range(len(got)) if got[i] != want[i]]
    print(f'{path}: rule "{flush}": {len(got) - len(bad)} of {len(got)} words match', bad[:8])

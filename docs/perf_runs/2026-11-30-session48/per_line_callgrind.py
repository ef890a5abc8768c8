# per_line_callgrind.py OUT PATTERN DIVISOR: a callgrind output's self cost summed by source line
# (file:line, the inlined location) over the functions whose names match the regular expression
# PATTERN, divided by DIVISOR (e.g. 64-ID units run), the 45 largest. Reads callgrind's
# compressed names and relative line numbers.
# Sums callgrind self cost by (file, line) over functions whose name matches a pattern.
import re, sys, collections
path, pat, div = sys.argv[1], sys.argv[2], float(sys.argv[3])
files, fns = {}, {}
fl = fn = None; fi = None
cost = collections.Counter()
sub = False
last = 0
def name(tbl, s):
    m = re.match(r'\((\d+)\)(?:\s+(.*))?', s)
    if not m: return s
    if m.group(2): tbl[m.group(1)] = m.group(2)
    return tbl.get(m.group(1), '?')
for line in open(path):
    line = line.rstrip('\n')
    if line.startswith('fl='): fl = name(files, line[3:]); fi = None; continue
    if line.startswith(('fi=', 'fe=')): fi = name(files, line[3:]); continue
    if line.startswith('fn='): fn = name(fns, line[3:]); fi = None; continue
    if line.startswith(('cfi=', 'cfl=')): name(files, line[4:]); continue
    if line.startswith('cfn='): name(fns, line[4:]); continue
    if line.startswith('calls='): sub = True; continue
    if line and (line[0].isdigit() or line[0] in '+-*'):
        if sub:
            sub = False
            p = line.split()[0]
            last = (last + int(p[1:])) if p[0] == '+' else (last - int(p[1:])) if p[0] == '-' else last if p == '*' else int(p)
            continue
        parts = line.split()
        p = parts[0]
        if p[0] == '+': ln = last + int(p[1:])
        elif p[0] == '-': ln = last - int(p[1:])
        elif p == '*': ln = last
        else: ln = int(p)
        last = ln
        if len(parts) < 2: continue
        if fn and re.search(pat, fn):
            cost[((fi or fl).split('/')[-1], ln)] += int(parts[1])
tot = sum(cost.values())
print(f'total {tot/div:.1f}')
for (f, l), c in cost.most_common(45):
    print(f'{c/div:8.1f}  {f}:{l}')

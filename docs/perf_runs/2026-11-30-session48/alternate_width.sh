#!/bin/bash
# alternate_width.sh OLD NEW ROUNDS WAVE: group_width.cpp's one-thread time at each width, the
# two binaries in turns (OLD first in odd rounds, NEW first in even ones; their file names must
# differ), 2^20 IDs, the fastest of 10 dispatches each. Then, per width, the median over the
# rounds of each binary and of NEW/OLD taken round by round.
for r in $(seq "$3"); do
  for w in 8 16 32 64 128 256 512 1024; do
    [ "$w" -lt "$4" ] && continue
    if [ $((r % 2)) -eq 1 ]; then order="$1 $2"; else order="$2 $1"; fi
    for b in $order; do
      echo "round $r $(basename "$b") $(WIDTH=$w "$b" 20 10 "$4")"
    done
  done
done | tee /dev/stderr | python3 -c '
import re, sys, statistics, collections
t = collections.defaultdict(dict)
names = []
for line in sys.stdin:
    m = re.match(r"round (\d+) (\S+) width +(\d+) wave +\d+: ([\d.]+)", line)
    if not m: continue
    r, name, w, ns = int(m[1]), m[2], int(m[3]), float(m[4])
    if name not in names: names.append(name)
    t[w].setdefault(name, {})[r] = ns
old, new = sys.argv[1], sys.argv[2]
print(f"# medians over rounds, ns per ID; ratio = median of {new}/{old} round by round")
for w in sorted(t):
    o, n = t[w][old], t[w][new]
    ratios = [n[r] / o[r] for r in o if r in n]
    print(f"width {w:5d}: {old} {statistics.median(o.values()):.2f}  {new} "
          f"{statistics.median(n.values()):.2f}  ratio {statistics.median(ratios):.3f} "
          f"({min(ratios):.2f}-{max(ratios):.2f})")
' "$(basename "$1")" "$(basename "$2")"

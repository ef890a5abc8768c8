#!/bin/bash
# alternate_pairs.sh A B ROUNDS (session 49): runs two builds of session 43's keyrow_in_cache.cpp
# (each prints ns per group) in turns, ROUNDS pairs, the order within a pair flipped every round.
# Prints each build's quartiles and the per-pair ratio B/A: its median and how many pairs had B
# faster. Comparing within a pair keeps the VM's slow and fast moments out of the ratio.
A=$1; B=$2; R=$3
for i in $(seq "$R"); do
  if (( i % 2 )); then a=$("$A"); b=$("$B"); else b=$("$B"); a=$("$A"); fi
  echo "$a $b"
done | python3 -c '
import sys, statistics as s
p=[tuple(map(float,l.split())) for l in sys.stdin]
a=[x for x,_ in p]; b=[y for _,y in p]; r=[y/x for x,y in p]
q=lambda v: "min %.1f q1 %.1f med %.1f q3 %.1f"%(min(v),*s.quantiles(v,n=4))
print("A", q(a)); print("B", q(b))
print("B/A per pair: median %.4f q1 %.4f q3 %.4f, B faster in %d of %d"%(s.median(r),*s.quantiles(r,n=4)[::2],sum(x<1 for x in r),len(r)))'

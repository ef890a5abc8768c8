#!/bin/bash
# alternate.sh A B [ROUNDS]: runs two builds of keyrow_in_cache.cpp in turns, ROUNDS (default 60)
# times each, and prints each build's results sorted. This VM runs in a fast and a slow phase
# that change within seconds; the two builds meet both, and the fast phase's cluster (the lowest
# values, about a quarter of them) is what a comparison reads.
A=$1; B=$2; R=${3:-60}
ra=(); rb=()
for i in $(seq "$R"); do ra+=($("$A")); rb+=($("$B")); done
echo "A: $(printf '%s\n' "${ra[@]}" | sort -n | tr '\n' ' ')"
echo "B: $(printf '%s\n' "${rb[@]}" | sort -n | tr '\n' ' ')"

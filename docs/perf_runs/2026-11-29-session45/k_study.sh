#!/bin/bash
# k_study.sh [ROUNDS]: the bench's three free-ID wave rows at free 0.5 (no lavapipe), with 1, 4,
# 8, 16 and 64 groups in flight per worker (--groups-in-flight), in turns, ROUNDS (default 5)
# times; per row: W, all cores ms, one thread ms, and one thread / Highway loop (the bench's
# "1thr/nat" column). Run from the repository root after building the bench target.
for round in $(seq "${1:-5}"); do
  for k in 1 4 8 16 64; do
    build/default/tools/bench/waveemu-bench --no-vulkan --filter "free_ids_wave free 0.5" \
      --repeats 7 --groups-in-flight "$k" 2>&1 |
      awk -v k="$k" '/^free_ids_wave/ {printf "k=%s W=%s all=%s one=%s one/native=%s  ", k, $5, $6, $7, $11} END {print ""}'
  done
done

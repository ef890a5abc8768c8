#!/bin/bash
# The key row on one core (taskset -c 0) while the other core (taskset -c 1) idles, runs an
# integer/vector ALU loop (bg 0), streams a read (bg 1) or a copy (bg 2) of 128 MiB.
# g++ -O2 -march=native bg.cpp -o bg; BENCH=path/to/waveemu-bench bash bg_runs.sh
B=${BENCH:-./waveemu-bench}
for mode in none 0 1 2 none 0 1 2; do
  if [ $mode != none ]; then taskset -c 1 ./bg $mode & BG=$!; sleep 0.5; fi
  echo "background: $mode"
  taskset -c 0 $B --repeats 5 --no-vulkan --filter "free_ids_wave free 0.5 w8" 2>&1 | grep -E "^free_ids_wave"
  if [ $mode != none ]; then kill $BG; wait $BG 2>/dev/null; fi
done

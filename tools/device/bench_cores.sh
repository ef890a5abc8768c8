#!/usr/bin/env bash
# bench_cores.sh -- runs on the device machine, from the folder pack.sh filled with
# WAVEEMU_PACK_BENCH=1 (.devrun/): waveemu-bench without lavapipe on two physical cores of that
# machine's CPU (taskset; oneTBB and the benchmark take their worker count from the affinity
# mask), then the key free-ID row on 1, 2, 4 and 8 physical cores and `--floor` on one, and writes
#   $OUT/cpu.txt          lscpu, the cores chosen, the date
#   $OUT/bench2.txt/.json the whole benchmark on two cores (its table and target lines)
#   $OUT/cores.txt        the key row on 1, 2, 4 and 8 cores
#   $OUT/floor.txt        waveemu-bench --floor on one core
# It exists because this project's own machine is a 2-vCPU VM whose cores slow each other down
# (docs/performance.md): the same program on other hardware shows what two cores give there.
# As run_on_gpu.sh, it runs them through the packed glibc when the host's is older
# (packed_glibc.sh; WAVEEMU_PACKED_GLIBC=1/0 forces it on or off).
# Usage: OUT=/path ./bench_cores.sh   (or ./bench_cores.sh /path)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-${OUT:?set OUT or pass the output folder}}
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench=$here/bin/waveemu-bench
source "$here/packed_glibc.sh"
mkdir -p "$OUT"

# One logical CPU per physical core, cores of the first NUMA node first: "taskset -c" lists.
mapfile -t firsts < <(lscpu -p=CPU,CORE,SOCKET,NODE | grep -v '^#' |
                      sort -t, -k4,4n -k3,3n -k2,2n -k1,1n |
                      awk -F, '!seen[$2 "," $3]++ { print $1 }')
cores() { local IFS=,; echo "${firsts[*]:0:$1}"; }

{
  echo "date: $(date -u +%FT%TZ)"
  echo "kernel: $(uname -sr)"
  [ -f "$here/PACKED" ] && cat "$here/PACKED"
  echo "host glibc $have (packed binaries need $need; packed glibc used: $WAVEEMU_PACKED_GLIBC)"
  echo
  lscpu
  echo
  echo "physical cores found: ${#firsts[@]}; two cores used: $(cores 2)"
} > "$OUT/cpu.txt" 2>&1

if [ "${#firsts[@]}" -lt 2 ]; then
  echo "bench_cores.sh: fewer than two physical cores" >&2
  exit 2
fi

taskset -c "$(cores 2)" "$bench" --no-vulkan --json "$OUT/bench2.json" > "$OUT/bench2.txt" 2>&1
echo "(exit $?)" >> "$OUT/bench2.txt"

: > "$OUT/cores.txt"
for n in 1 2 4 8; do
  [ "$n" -le "${#firsts[@]}" ] || break
  echo "### $n physical cores: taskset -c $(cores "$n")" >> "$OUT/cores.txt"
  taskset -c "$(cores "$n")" "$bench" --no-vulkan --filter "free_ids_wave free 0.5 w8" \
    --repeats 7 >> "$OUT/cores.txt" 2>&1
  echo "(exit $?)" >> "$OUT/cores.txt"
done

taskset -c "$(cores 1)" "$bench" --floor > "$OUT/floor.txt" 2>&1
echo "(exit $?)" >> "$OUT/floor.txt"

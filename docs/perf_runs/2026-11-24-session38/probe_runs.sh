#!/bin/bash
# The probe's three measurements (bench built with thread_probe.patch applied).
B=${BENCH:-./waveemu-bench-probe}
echo "## 1. Two cores, 64 in flight: cycles per group of each thread (PROBE=1)"
PROBE=1 $B --repeats 5 --filter "free_ids_wave free 0.5" --no-vulkan 2>&1 | grep -E "PROBE|settle|^free_ids_wave"
echo
echo "## 2. One thread, every group on a fiber (FIBER1=1), by groups in flight"
for g in 1 4 8 16 32 64; do
  echo "### --groups-in-flight $g"
  FIBER1=1 PROBE=1 $B --repeats 5 --groups-in-flight $g --filter "free_ids_wave free 0.5 w8" --no-vulkan 2>&1 | grep -E "PROBE w8 mt1|^free_ids_wave"
done
echo
echo "## 3. Two cores, by groups in flight: the worker's fetch_add in Settle"
for g in 16 32 64; do
  echo "### --groups-in-flight $g"
  PROBE=1 $B --repeats 5 --groups-in-flight $g --filter "free_ids_wave free 0.5 w8" --no-vulkan 2>&1 | grep -E "PROBE w8 mt0|settle|^free_ids_wave"
done

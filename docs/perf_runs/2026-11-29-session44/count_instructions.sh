#!/bin/bash
# count_instructions.sh BINARY [STAGES...]: instructions per group of each stage of a session-44
# probe (wave_op_stages.cpp), counted by callgrind as the difference between 24 and 8 dispatches
# of 1024 groups (2^16 lanes), so that setup drops out. Exact, and independent of the VM's phase.
ir() { STAGE=$2 REPS=$3 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" 2>&1 |
  grep "Collected" | awk '{print $4}'; }
bin=$1; shift
for s in "${@:-0 1 2}"; do
  a=$(ir "$bin" "$s" 8); b=$(ir "$bin" "$s" 24)
  echo "stage $s: $(( (b - a) / (16 * 1024) )) instructions per group"
done

#!/bin/bash
# count_instructions.sh STAGES_BINARY: instructions per group of each stage of
# statement_stages.cpp, counted by callgrind (valgrind --tool=callgrind) as the difference
# between 24 and 8 dispatches of 1024 groups, so that setup (the table, the reference) drops
# out. The count is exact and does not depend on the VM's phase.
ir() { STAGE=$2 REPS=$3 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" 2>&1 |
  grep "Collected" | awk '{print $4}'; }
for s in 0 1 2 3 4 5 6; do
  a=$(ir "$1" $s 8); b=$(ir "$1" $s 24)
  echo "stage $s: $(( (b - a) / (16 * 1024) )) instructions per group"
done

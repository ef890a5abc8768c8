#!/bin/bash
# alternate.sh ROUNDS STAGES -- NAME=COMMAND...: runs each command (a wave_op_stages build, with
# any environment it needs) in turns, ROUNDS times per stage, at 2^24 lanes (SIZE_LOG2=24, REPS=8:
# the fastest of 8 dispatches), and prints each one's ns per group sorted. The VM's fast and slow
# phases change within seconds; taking the builds in turns makes them meet both alike.
R=$1; STAGES=$2; shift 3
declare -A res
for i in $(seq "$R"); do
  for s in $STAGES; do
    for spec in "$@"; do
      name=${spec%%=*}; cmd=${spec#*=}
      v=$(env STAGE=$s SIZE_LOG2=24 REPS=8 $cmd | awk '{print $3}')
      res[$name.$s]+="$v "
    done
  done
done
for s in $STAGES; do
  for spec in "$@"; do
    name=${spec%%=*}
    echo "stage $s $name: $(printf '%s\n' ${res[$name.$s]} | sort -n | tr '\n' ' ')"
  done
done

#!/bin/bash
# count_width.sh BINARY WAVE: instructions per 64 IDs of group_width.cpp at each width, counted by
# callgrind as the difference between 6 and 2 dispatches of 2^16 IDs (setup drops out).
ir() { WIDTH=$2 STAGE=count valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" 16 $3 $4 \
  2>&1 | grep "Collected" | awk '{print $4}'; }
for w in 8 16 32 64 128 256 512 1024; do
  [ "$w" -lt "$2" ] && continue
  a=$(ir "$1" $w 2 $2); b=$(ir "$1" $w 6 $2)
  echo "width $w wave $2: $(( (b - a) / (4 * 1024) )) instructions per 64 IDs"
done

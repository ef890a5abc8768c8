#!/bin/bash
# ab.sh NAME_A NAME_B ROUNDS [filter]: alternate two bench binaries, print each row's two-core speed-up and one-thread ms
F=${4:-free_ids_wave}
for i in $(seq 1 $3); do for m in $1 $2; do
  ./bench_$m --repeats 5 --filter "$F" --no-vulkan --json ab_${m}_$i.json >/dev/null 2>&1
  python3 -c "
import json
d=json.load(open('ab_${m}_$i.json'))
r=[x['ratios']['one_thread_over_all_cores'] for x in d['rows']]
t=[x['ms']['emulator_one_thread'] for x in d['rows']]
a=[x['ms']['emulator_all_cores'] for x in d['rows']]
print('$m $i', ' '.join('%.2f'%v for v in r), 'min %.2f'%min(r), '| 1thr %.1f all %.2f'%(sum(t),sum(a)))
"; done; done

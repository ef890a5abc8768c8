# The third call (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run18/command3.sh', from the repository root; VKF unset
# there (the Vulkan runs work locally on lavapipe too). It records probe_special_functions on the
# H100 (golden.tar.gz: the folder for tests/golden/nvidia/), runs study2.yaml and keeps 2^20 words
# of each buffer, and checksums ex2, lg2, sin and cos over every bit pattern (checksums.py).
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
run=$PWD/docs/gpu_runs/2026-11-23-h100-run18; R=$(mktemp -d); O=${OUT:-/tmp/run18c}; mkdir -p $O
{
  echo "- date: $(date -u +%FT%TZ)"
  echo "- nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n1)"
  (cd .devrun; here=$PWD; source ./packed_glibc.sh; export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
   sed 's/^/- /' PACKED
   echo '$ waveemu run tests/pipelines/probe_special_functions.yaml --backend vulkan --out probe_special_functions'
   timeout 60 waveemu run ../tests/pipelines/probe_special_functions.yaml --backend vulkan --out $R/probe_special_functions; echo "(exit $?)"
   echo '$ waveemu run study2.yaml --backend vulkan --out RAW2'
   timeout 120 waveemu run $run/study2.yaml --backend vulkan --out $R/study2; echo "(exit $?)")
  tar -C $R -czf $O/golden.tar.gz probe_special_functions
  echo '$ python3 keep_samples.py RAW2 $OUT'
  timeout 120 python3 $run/keep_samples.py $R/study2 $O; echo "(exit $?)"
  echo '$ python3 checksums.py $OUT'
  PYTHONUNBUFFERED=1 timeout 300 python3 $run/checksums.py $O; echo "(exit $?)"
  echo "- done: $(date -u +%FT%TZ)"
} 2>&1 | tee $O/run3.log

# The command given to the device tool (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run11/command.sh', from the repository root; VKF unset there
# (it let the same line run locally on lavapipe first). The device's words go through
# analyze_on_device.py (numpy) into $OUT as differences from correctly rounded results.
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
run=$PWD/docs/gpu_runs/2026-11-23-h100-run11; R=$(mktemp -d); O=${OUT:-/tmp/run11}; mkdir -p $O
PY=${PY:-python3}
{
  echo "- date: $(date -u +%FT%TZ)"
  echo "- VK_DRIVER_FILES=$VK_DRIVER_FILES"
  echo "- nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n1)"
  (cd .devrun; here=$PWD; source ./packed_glibc.sh; export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
   sed 's/^/- /' PACKED
   echo '$ waveemu run division.yaml --backend vulkan --out RAW'
   timeout 120 waveemu run $run/division.yaml --backend vulkan --out $R; echo "(exit $?)"
   echo '$ waveemu run scaling.yaml --backend vulkan --out RAW2'
   timeout 120 waveemu run $run/scaling.yaml --backend vulkan --out $R/2; echo "(exit $?)")
  echo '$ python3 analyze_on_device.py RAW $OUT'
  timeout 200 $PY $run/analyze_on_device.py $R $O; echo "(exit $?)"
  echo '$ python3 analyze_on_device.py --scaling RAW2 $OUT'
  timeout 200 $PY $run/analyze_on_device.py --scaling $R/2 $O; echo "(exit $?)"
  echo "- done: $(date -u +%FT%TZ)"
} 2>&1 | tee $O/run.log

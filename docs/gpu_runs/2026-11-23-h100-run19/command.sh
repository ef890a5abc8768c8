# The command given to the device tool (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run19/command.sh', from the repository root. It runs
# study3.yaml on the H100 through Vulkan, compares the words with CUDA's functions
# (analyze_run19.py) and prints cuda_math.cu's PTX (cuda_math.ptx, -ftz=true).
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
run=$PWD/docs/gpu_runs/2026-11-23-h100-run19; R=$(mktemp -d); O=${OUT:-/tmp/run19}; mkdir -p $O
{
  echo "- date: $(date -u +%FT%TZ)"
  echo "- nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n1)"
  (cd .devrun; here=$PWD; source ./packed_glibc.sh; export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
   sed 's/^/- /' PACKED
   echo '$ waveemu run study3.yaml --backend vulkan --out RAW'
   timeout 120 waveemu run $run/study3.yaml --backend vulkan --out $R; echo "(exit $?)")
  echo '$ nvcc -arch=sm_90 -ptx -ftz=true cuda_math.cu -o $OUT/cuda_math.ptx'
  timeout 120 nvcc -arch=sm_90 -ptx -ftz=true $run/cuda_math.cu -o $O/cuda_math.ptx; echo "(exit $?)"
  echo '$ python3 analyze_run19.py RAW $OUT'
  PYTHONUNBUFFERED=1 timeout 300 python3 $run/analyze_run19.py $R $O; echo "(exit $?)"
  echo "- done: $(date -u +%FT%TZ)"
} 2>&1 | tee $O/run.log

# The command given to the device tool (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run18/command.sh', from the repository root. It runs
# study.yaml on the H100 through Vulkan, prints the machine code of the PTX approximations
# (sass.cu), and runs analyze_on_device.py (CuPy: mufu.cu) over the words.
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
run=$PWD/docs/gpu_runs/2026-11-23-h100-run18; R=$(mktemp -d); O=${OUT:-/tmp/run18}; mkdir -p $O
{
  echo "- date: $(date -u +%FT%TZ)"
  echo "- nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n1)"
  (cd .devrun; here=$PWD; source ./packed_glibc.sh; export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
   sed 's/^/- /' PACKED
   echo '$ waveemu run study.yaml --backend vulkan --out RAW'
   timeout 120 waveemu run $run/study.yaml --backend vulkan --out $R; echo "(exit $?)")
  echo '$ nvcc -arch=sm_90 -cubin sass.cu && cuobjdump -sass'
  (cd $R && timeout 120 nvcc -arch=sm_90 -cubin -o sass.cubin $run/sass.cu &&
   cuobjdump -sass sass.cubin | grep -v '^\s*/\* 0x'); echo "(exit $?)"
  echo '$ python3 analyze_on_device.py RAW $OUT'
  PYTHONUNBUFFERED=1 timeout 400 python3 $run/analyze_on_device.py $R $O; echo "(exit $?)"
  echo "- done: $(date -u +%FT%TZ)"
} 2>&1 | tee $O/run.log

# The second call (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run19/command2.sh', from the repository root; VKF unset
# there. It records probe_special_functions, now with tanh in slots 11 and 12, on the H100
# (golden.tar.gz: the folder for tests/golden/nvidia/).
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
R=$(mktemp -d); O=${OUT:-/tmp/run19b}; mkdir -p $O
{
  echo "- date: $(date -u +%FT%TZ)"
  echo "- nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n1)"
  (cd .devrun; here=$PWD; source ./packed_glibc.sh; export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
   sed 's/^/- /' PACKED
   echo '$ waveemu run tests/pipelines/probe_special_functions.yaml --backend vulkan --out probe_special_functions'
   timeout 60 waveemu run ../tests/pipelines/probe_special_functions.yaml --backend vulkan --out $R/probe_special_functions; echo "(exit $?)")
  tar -C $R -czf $O/golden.tar.gz probe_special_functions
  echo "- done: $(date -u +%FT%TZ)"
} 2>&1 | tee $O/run2.log

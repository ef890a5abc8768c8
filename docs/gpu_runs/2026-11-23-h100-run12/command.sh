# The command given to the device tool (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run12/command.sh', from the repository root; VKF unset there
# (it let the same line run locally on lavapipe first). run_on_gpu.sh checks every pipeline with
# the nvidia profile and records the device's buffers; division_literals.yaml's buffers are
# recorded too.
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
run=$PWD/docs/gpu_runs/2026-11-23-h100-run12; O=${OUT:-/tmp/run12}; mkdir -p $O
BUDGET_S=300 bash .devrun/run_on_gpu.sh $O
(cd .devrun; here=$PWD; source ./packed_glibc.sh; export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
 R=$(mktemp -d)
 { echo '$ waveemu run division_literals.yaml --backend vulkan --out literals'
   timeout 60 waveemu run $run/division_literals.yaml --backend vulkan --out $R/literals
   echo "(exit $?)"; } 2>&1 | tee $O/literals.log
 tar -C $R -czf $O/literals.tar.gz literals)

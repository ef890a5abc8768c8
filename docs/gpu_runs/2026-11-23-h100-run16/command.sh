# The command given to the device tool (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run16/command.sh', from the repository root; VKF unset there
# (it let the same line run locally on lavapipe first). run_on_gpu.sh checks every pipeline with
# the nvidia profile (with run 15's % and fmod model) and records the device's
# buffers.
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
O=${OUT:-/tmp/run16}; mkdir -p $O
BUDGET_S=300 bash .devrun/run_on_gpu.sh $O

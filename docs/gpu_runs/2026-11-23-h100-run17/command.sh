# The command given to the device tool (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run17/command.sh', from the repository root; VKF unset there
# (it lets the same line run locally on lavapipe). It records the H100's words for
# probe_transcendentals and compares the emulator's nvidia profile with them (waveemu check);
# records.tar.gz is kept here as records_h100.tar.gz.
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
O=${OUT:-/tmp/run17}; mkdir -p $O
(cd .devrun; here=$PWD; source ./packed_glibc.sh; export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
 R=$(mktemp -d)
 { waveemu devices
   echo '$ waveemu run tests/pipelines/probe_transcendentals.yaml --backend vulkan --out transcendentals'
   timeout 60 waveemu run ../tests/pipelines/probe_transcendentals.yaml --backend vulkan --out $R/transcendentals
   echo "(exit $?)"
   echo '$ waveemu check tests/pipelines/probe_transcendentals.yaml'
   timeout 60 waveemu check ../tests/pipelines/probe_transcendentals.yaml
   echo "(exit $?)"; } 2>&1 | tee $O/run.log
 tar -C $R -czf $O/records.tar.gz transcendentals)

# The command given to the device tool (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run15/command.sh', from the repository root; VKF unset there
# (it let the same line run locally on lavapipe first). It records the device's words for
# probe_remainder (fp32 % and fmod) and double_remainder (fp64 %). Its records.tar.gz is kept
# here as records_h100.tar.gz (and the lavapipe run's as records_lavapipe.tar.gz).
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
run=$PWD/docs/gpu_runs/2026-11-23-h100-run15; O=${OUT:-/tmp/run15}; mkdir -p $O
(cd .devrun; here=$PWD; source ./packed_glibc.sh; export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
 R=$(mktemp -d)
 { waveemu devices
   echo '$ waveemu run tests/pipelines/probe_remainder.yaml --backend vulkan --out remainder'
   timeout 60 waveemu run ../tests/pipelines/probe_remainder.yaml --backend vulkan --out $R/remainder
   echo "(exit $?)"
   echo '$ waveemu run double_remainder.yaml --backend vulkan --out double_remainder'
   timeout 60 waveemu run $run/double_remainder.yaml --backend vulkan --out $R/double_remainder
   echo "(exit $?)"; } 2>&1 | tee $O/run.log
 tar -C $R -czf $O/records.tar.gz remainder double_remainder)

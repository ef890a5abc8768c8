# The command given to the device tool (run, kind nvidia-h100-x1, carry [".devrun", ".gl"]) as
# 'bash docs/gpu_runs/2026-11-23-h100-run13/command.sh', from the repository root; VKF unset there
# (it let the same line run locally on lavapipe first). It checks probe_geometry against the
# emulator's nvidia profile (both runs' buffers kept) and records the device's words for the two
# evidence pipelines of this folder.
set -o pipefail; for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=${VKF:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
run=$PWD/docs/gpu_runs/2026-11-23-h100-run13; O=${OUT:-/tmp/run13}; mkdir -p $O
(cd .devrun; here=$PWD; source ./packed_glibc.sh; export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
 R=$(mktemp -d)
 { waveemu devices
   echo '$ waveemu check tests/pipelines/probe_geometry.yaml --profile nvidia --out geometry'
   timeout 60 waveemu check ../tests/pipelines/probe_geometry.yaml --profile nvidia --out $R/geometry
   echo "(exit $?)"
   for p in double_ops float_edges; do
     echo "\$ waveemu run $p.yaml --backend vulkan --out $p"
     timeout 60 waveemu run $run/$p.yaml --backend vulkan --out $R/$p
     echo "(exit $?)"
   done; } 2>&1 | tee $O/run.log
 tar -C $R -czf $O/records.tar.gz geometry double_ops float_edges)

# The second call (run, kind nvidia-h100-x1, no carry) as
# 'bash docs/gpu_runs/2026-11-23-h100-run18/command2.sh': analyze_models.py, the models of
# models.cu against the device over every fp32 bit pattern.
set -o pipefail
run=$PWD/docs/gpu_runs/2026-11-23-h100-run18; O=${OUT:-/tmp/run18b}; mkdir -p $O
{
  echo "- date: $(date -u +%FT%TZ)"
  echo "- nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n1)"
  echo '$ python3 analyze_models.py $OUT'
  PYTHONUNBUFFERED=1 timeout 500 python3 $run/analyze_models.py $O; echo "(exit $?)"
  echo "- done: $(date -u +%FT%TZ)"
} 2>&1 | tee $O/run2.log

#!/usr/bin/env bash
# run_on_gpu.sh -- runs on the GPU machine, from the folder pack.sh filled (.devrun/): lists the
# Vulkan devices, then for every pipeline runs `waveemu check --profile $PROFILE` (emulator vs the
# device) and `waveemu run --backend vulkan` (the device's buffers: the golden files), and writes
#   $OUT/results.md    table: pipeline, check result, first mismatch; environment; commands
#   $OUT/run.log       everything each command printed
#   $OUT/golden.tar.gz golden/<pipeline>/ as written by `waveemu run --out`
#   $OUT/mips.tar.gz   mips/NAME.txt and mips/NAME.png per input and format: the report of
#                      `waveemu mips --backend vulkan --compare` (the original GenerateMipsCS.hlsl
#                      on the device vs the emulator's port with $PROFILE) and the device's
#                      contact sheet (one archive: the device tool returns at most 8 files)
# Usage: OUT=/path ./run_on_gpu.sh   (or ./run_on_gpu.sh /path). Environment: PROFILE (nvidia),
# VK_DRIVER_FILES (the NVIDIA ICD), BUDGET_S (total seconds, 420), STEP_TIMEOUT_S (60),
# WAVEEMU_PACKED_GLIBC (1/0: force the packed glibc on or off; default: on when the host's is older).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-${OUT:?set OUT or pass the output folder}}
PROFILE=${PROFILE:-nvidia}
BUDGET_S=${BUDGET_S:-420}
STEP_TIMEOUT_S=${STEP_TIMEOUT_S:-60}
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$here/bin:$PATH"
mkdir -p "$OUT"
log=$OUT/run.log
results=$OUT/results.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
: > "$log"

# The packed binaries need glibc >= NEEDED; use the packed glibc when the host's is older.
source "$here/packed_glibc.sh"

run_step() {  # run_step LABEL CMD...: logs the command and its output; returns its exit code
  local label=$1; shift
  local left=$(( BUDGET_S - ($(date +%s) - start) ))
  if [ "$left" -le 5 ]; then echo "### $label: skipped, time budget spent" >> "$log"; return 125; fi
  local limit=$(( left < STEP_TIMEOUT_S ? left : STEP_TIMEOUT_S ))
  echo "### $label" >> "$log"
  echo "\$ $*" >> "$log"
  timeout -k 5 "$limit" "$@" > "$work/step.txt" 2>&1
  local rc=$?
  cat "$work/step.txt" >> "$log"
  echo "(exit $rc, $(( $(date +%s) - start )) s since start)" >> "$log"
  return $rc
}

{
  echo "# waveemu on $(uname -n): profile $PROFILE"
  echo
  echo "- date: $(date -u +%FT%TZ)"
  echo "- kernel: $(uname -sr); host glibc $have (packed binaries need $need; packed glibc used: ${WAVEEMU_PACKED_GLIBC:-0})"
  echo "- VK_DRIVER_FILES=$VK_DRIVER_FILES"
  [ -f "$here/PACKED" ] && sed 's/^/- /' "$here/PACKED"
  if command -v nvidia-smi >/dev/null; then
    echo "- nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n1)"
  fi
  echo
  echo '## waveemu devices'
  echo
  echo '```'
} > "$results"
run_step devices waveemu devices
cat "$work/step.txt" >> "$results"
echo '```' >> "$results"

cat >> "$results" <<MD

## Pipelines

Commands, from $here: \`waveemu check tests/pipelines/NAME --profile $PROFILE\` and
\`waveemu run tests/pipelines/NAME --backend vulkan --out golden/NAME\` (full output in run.log).

"bit-exact" compares the emulator's buffers with the device's; "rules" are the pipeline's own
Results (expected buffers written for wave 8 fail at other wave sizes on both backends alike).

| pipeline | check (profile $PROFILE) | bit-exact: emulator vs device | first mismatch or error | rules that failed | vulkan run |
|---|---|---|---|---|---|
MD

mkdir -p "$work/golden"
pass=0; total=0
for p in "$here"/tests/pipelines/*.yaml "$here"/tests/pipelines/*.test; do
  [ -f "$p" ] || continue
  name=$(basename "$p"); name=${name%.*}
  rel=tests/pipelines/$(basename "$p")
  total=$((total + 1))
  (cd "$here" && run_step "check $name" waveemu check "$rel" --profile "$PROFILE")
  rc=$?
  case $rc in
    0) result=PASS; pass=$((pass + 1)) ;;
    1) result=FAIL ;;
    2) result="ERROR (exit 2)" ;;
    124|137) result="TIMEOUT" ;;
    125) result="SKIPPED (time)" ;;
    *) result="exit $rc" ;;
  esac
  first=""; exact=""; rules=""
  if [ "$rc" = 0 ] || [ "$rc" = 1 ]; then
    # Lines without a prefix compare the two runs; "emulator: " / "vulkan:   " ones are Results.
    if grep -q '^FAIL ' "$work/step.txt"; then exact=FAIL; else exact=PASS; fi
    rules=$(grep -E '^(emulator|vulkan): +FAIL' "$work/step.txt" | sed 's/: *FAIL.*//' | sort -u | tr '\n' ' ')
  fi
  if [ "$rc" != 0 ]; then
    first=$(grep -m1 -A1 -E '^FAIL|error|Error' "$work/step.txt" | tr '\n|' ' /' | sed 's/  */ /g' | cut -c1-220)
  fi
  (cd "$here" && run_step "run $name" waveemu run "$rel" --backend vulkan --out "$work/golden/$name")
  vrc=$?
  [ "$vrc" = 125 ] && vrc="skipped (time)" || vrc="exit $vrc"
  echo "| $name | $result | $exact | $first | $rules | $vrc |" >> "$results"
done

tar -czf "$OUT/golden.tar.gz" -C "$work" golden
{
  echo
  echo "$pass of $total pipelines bit-exact; $(( $(date +%s) - start )) s so far."
  echo "Golden buffers: golden.tar.gz (golden/NAME/ from \`waveemu run --out\`)."
} >> "$results"

# ---- the mip generator: GenerateMipsCS.hlsl on the device, compared level by level
cat >> "$results" <<MD

## Mip generator

\`waveemu mips INPUT --backend vulkan --compare --profile $PROFILE --format F [--srgb]\`: the
original GenerateMipsCS.hlsl (glslang, one dispatch per step of MiniEngine's loop) on the device
against the emulator's port. Per level 1..n: the largest difference in ULPs (float formats) or
UNORM units (rgba8), 0 = bit-exact. Reports (mips/NAME.txt) and the device's contact sheets
(mips/NAME.png) are in mips.tar.gz.

| input | format | levels 1.. (largest difference) | exit |
|---|---|---|---|
MD
mkdir -p "$work/mips_out/mips" "$work/mips"
for img in "$here"/mips_inputs/*.png; do
  [ -f "$img" ] || continue
  base=$(basename "$img" .png)
  for mode in rgba32f rgba16f rgba8 rgba8-srgb; do
    fmt=${mode%-srgb}; extra=(); [ "$mode" = rgba8-srgb ] && extra=(--srgb)
    tag=${base}_${mode}
    run_step "mips $tag" waveemu mips "$img" --backend vulkan --compare --profile "$PROFILE" \
      --format "$fmt" "${extra[@]}" --out "$work/mips/$tag"
    rc=$?
    levels=$(grep -E '^(PASS|FAIL) level [1-9]' "$work/step.txt" |
             sed -E 's/^(PASS|FAIL) level ([0-9]+) .*: (bit-exact|max ([0-9]+) .*)$/\2:\4/; s/:$/:0/' |
             tr '\n' ' ')
    [ -f "$work/mips/$tag/compare.txt" ] && cp "$work/mips/$tag/compare.txt" "$work/mips_out/mips/$tag.txt"
    [ -f "$work/mips/$tag/contact_sheet.png" ] && cp "$work/mips/$tag/contact_sheet.png" "$work/mips_out/mips/$tag.png"
    [ -n "$levels" ] || levels=$(grep -m1 -iE 'error' "$work/step.txt" | tr '|' '/' | cut -c1-160)
    echo "| $base | $mode | $levels | $rc |" >> "$results"
  done
done
tar -czf "$OUT/mips.tar.gz" -C "$work/mips_out" mips
echo >> "$results"
echo "$(( $(date +%s) - start )) s in all. Mip reports and contact sheets: mips.tar.gz." >> "$results"
cat "$results"

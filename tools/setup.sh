#!/usr/bin/env bash
# setup.sh -- installs the Debian 12 packages waveemu needs, only those that are missing.
# Idempotent: silent and quick when everything is present; apt-get runs only when something is
# missing. Needs root for that (no sudo prompt: it must work with no stdin, e.g. in CI).
set -euo pipefail

packages=(
  build-essential g++ cmake pkg-config git
  libhwy-dev libtbb-dev doctest-dev libfmt-dev libcli11-dev libyaml-cpp-dev
  libpng-dev zlib1g-dev libboost-context-dev glslang-tools spirv-tools mesa-vulkan-drivers libvulkan-dev vulkan-tools
)

missing=()
for p in "${packages[@]}"; do
  # dpkg-query prints "install ok installed" for a package that is fully installed.
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

if [[ "$(id -u)" -ne 0 ]]; then
  echo "setup.sh: these packages are missing and installing them needs root:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  echo "  (or run this script as root: sudo bash tools/setup.sh)" >&2
  exit 1
fi

echo "setup.sh: installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq </dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
echo "setup.sh: done"

#!/usr/bin/env bash
# quickstart.sh -- the README's two commands.
#   demo: install what is missing, build waveemu-demo (Release) and run it.
#   test: install what is missing, build everything (Release) and run the whole ctest suite.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() {
  echo "usage: bash tools/quickstart.sh demo|test" >&2
  exit 2
}

[[ $# -eq 1 ]] || usage
case "$1" in
  demo)
    bash tools/setup.sh
    if [[ ! -f tools/demo.cpp ]]; then
      echo "quickstart.sh: tools/demo.cpp is not written yet, so there is no demo to run" >&2
      exit 1
    fi
    cmake --preset default
    cmake --build --preset default -j2 --target waveemu-demo
    ./build/default/tools/waveemu-demo
    ;;
  test)
    bash tools/setup.sh
    cmake --preset default
    cmake --build --preset default -j2
    ctest --preset default
    ;;
  *)
    usage
    ;;
esac

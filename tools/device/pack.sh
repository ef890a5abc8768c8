#!/usr/bin/env bash
# pack.sh -- builds the waveemu command (Release, its own build folder) and packs everything a GPU
# machine without a package registry needs into .devrun/: the binaries, every shared library they
# load except glibc's (glibc is packed aside, used only where the host's is older), the Vulkan
# loader, the pipelines, and run_on_gpu.sh. With WAVEEMU_PACK_BENCH=1 it also builds and packs
# waveemu-bench and bench_cores.sh (the benchmark's core-scaling rows on that machine's CPUs).
# Usage: tools/device/pack.sh  (from anywhere)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${WAVEEMU_DEVRUN_BUILD:-$root/build/devrun}
dest=$root/.devrun
jobs=${JOBS:-2}

# An existing build folder (WAVEEMU_DEVRUN_BUILD) is reused as it is configured.
[ -f "$build/CMakeCache.txt" ] ||
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWAVEEMU_BUILD_TESTS=OFF >/dev/null
names="waveemu glslangValidator"
targets=waveemu-cli
if [ "${WAVEEMU_PACK_BENCH:-0}" = 1 ]; then
  names="$names waveemu-bench"
  targets="$targets waveemu-bench"
fi
cmake --build "$build" --target $targets -j"$jobs"
waveemu=$(find "$build" -type f -name waveemu -perm -u+x | head -n1)
glslang=$(command -v glslangValidator) || { echo "pack.sh: glslangValidator not found (glslang-tools)" >&2; exit 2; }
[ -n "$waveemu" ] || { echo "pack.sh: the build produced no waveemu binary" >&2; exit 2; }

rm -rf "$dest"
mkdir -p "$dest/libexec" "$dest/lib" "$dest/glibc" "$dest/bin" "$dest/tests"
cp "$waveemu" "$dest/libexec/waveemu"
cp "$(readlink -f "$glslang")" "$dest/libexec/glslangValidator"
if [ "${WAVEEMU_PACK_BENCH:-0}" = 1 ]; then
  cp "$(find "$build" -type f -name waveemu-bench -perm -u+x | head -n1)" "$dest/libexec/"
  cp "$root/tools/device/bench_cores.sh" "$dest/"
fi
strip --strip-unneeded "$dest"/libexec/* 2>/dev/null || true

# glibc's own libraries: packed aside, not put on LD_LIBRARY_PATH.
is_glibc() {
  case "$(basename "$1")" in
    ld-linux*|libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|\
    libutil.so.*|libanl.so.*|libnsl.so.*|libmvec.so.*|libBrokenLocale.so.*) return 0 ;;
  esac
  return 1
}
libs() { ldd "$1" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }'; }
for bin in "$dest"/libexec/*; do
  for lib in $(libs "$bin"); do
    if is_glibc "$lib"; then cp -L "$lib" "$dest/glibc/"; else cp -L "$lib" "$dest/lib/"; fi
  done
done
# The Vulkan loader, even if waveemu were ever to load it at run time only.
# awk reads to the end: an early exit would kill ldconfig with SIGPIPE, which pipefail reports.
vulkan=$(ldconfig -p | awk '/libvulkan\.so\.1 .*x86-64/ && !found { print $NF; found = 1 }')
[ -n "$vulkan" ] || { echo "pack.sh: libvulkan.so.1 not found (libvulkan1)" >&2; exit 2; }
cp -L "$vulkan" "$dest/lib/libvulkan.so.1"
# glibc needs its loader too, and the libraries ours may dlopen (libgcc_s for unwinding).
cp -L /lib64/ld-linux-x86-64.so.2 "$dest/glibc/" 2>/dev/null || true
strip --strip-unneeded "$dest"/lib/*.so* 2>/dev/null || true

# Wrappers: run the real binary directly, or through the packed glibc when the host's is older
# (run_on_gpu.sh sets WAVEEMU_PACKED_GLIBC=1 then). waveemu finds glslangValidator in PATH.
for name in $names; do
  cat > "$dest/bin/$name" <<WRAP
#!/usr/bin/env bash
here=\$(cd "\$(dirname "\$0")/.." && pwd)
if [ "\${WAVEEMU_PACKED_GLIBC:-0}" = 1 ]; then
  exec "\$here/glibc/ld-linux-x86-64.so.2" --library-path "\$here/lib:\$here/glibc" "\$here/libexec/$name" "\$@"
fi
exec "\$here/libexec/$name" "\$@"
WRAP
  chmod +x "$dest/bin/$name"
done

# The pipelines (YAML, HLSL, data files), not the ports or generators, and every HLSL file of the
# repository at its own path (pipelines name examples' shaders as ../../examples/...).
mkdir -p "$dest/tests/pipelines"
(cd "$root/tests/pipelines" && find . -maxdepth 1 -type f ! -name '*.py' -exec cp {} "$dest/tests/pipelines/" \;)
(cd "$root" && git ls-files -co --exclude-standard -- '*.hlsl' '*.hlsli' |
   while read -r f; do mkdir -p "$dest/$(dirname "$f")" && cp "$f" "$dest/$f"; done)
# Inputs for the mip generator runs: the pattern at power-of-two and odd sizes, and the example's
# 257x129 image.
python3 "$root/tools/device/make_mips_inputs.py" "$dest/mips_inputs"
cp "$root/examples/generate_mips/rings_257x129.png" "$dest/mips_inputs/"
cp "$root/tools/device/run_on_gpu.sh" "$root/tools/device/packed_glibc.sh" "$dest/"
chmod +x "$dest/run_on_gpu.sh"

# The newest glibc symbol version the binaries need, for run_on_gpu.sh's check.
need=$(for f in "$dest"/libexec/* "$dest"/lib/*; do objdump -T "$f" 2>/dev/null; done |
       grep -o 'GLIBC_[0-9.]*' | sort -u -V | tail -n1 | sed 's/GLIBC_//')
echo "$need" > "$dest/glibc/NEEDED"
{
  echo "packed $(date -u +%FT%TZ) from $(git -C "$root" rev-parse --short HEAD) on $(uname -n)"
  echo "host glibc $(ldd --version | head -n1 | awk '{print $NF}'), binaries need GLIBC_$need"
  "$dest/bin/glslangValidator" --version | sed -n 1p  # reads it all: no SIGPIPE (as above)
} > "$dest/PACKED"
size=$(du -sm "$dest" | cut -f1)
cat "$dest/PACKED"
echo "pack.sh: $dest holds $(find "$dest" -type f | wc -l) files, ${size} MiB"
if [ "$size" -ge 60 ]; then echo "pack.sh: .devrun/ is over 60 MiB" >&2; exit 1; fi

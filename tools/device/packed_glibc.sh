# packed_glibc.sh -- sourced by the scripts pack.sh puts in .devrun/ (run_on_gpu.sh,
# bench_cores.sh), from that folder: the packed binaries need glibc >= glibc/NEEDED, so when the
# host's is older, export WAVEEMU_PACKED_GLIBC=1 and the bin/ wrappers run them through the
# packed glibc. A value already set (1/0) is kept. Sets `need` and `have` for the scripts' logs.
need=$(cat "$here/glibc/NEEDED" 2>/dev/null || echo 0)
have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
have=${have:-0}
if [ -z "${WAVEEMU_PACKED_GLIBC:-}" ]; then
  if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n1)" != "$need" ]; then
    export WAVEEMU_PACKED_GLIBC=1
  else
    export WAVEEMU_PACKED_GLIBC=0
  fi
fi

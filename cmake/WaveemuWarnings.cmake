# WaveemuWarnings.cmake -- warning flags for waveemu's own targets (never for consumers).
function(waveemu_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
endfunction()

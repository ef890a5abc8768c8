# check_narrow_target.cmake -- passes when every SOURCE compiles (-fsyntax-only, which still
# instantiates every template the file uses) for a narrower SIMD target than this machine's:
# Highway then picks AVX2 (skylake: 8 lanes of 32 bits) or SSSE3 (x86-64-v2: 4), and a fast path
# written for 16-lane vectors must not break the build there (README: -march decides the SIMD
# width).
# Inputs: CXX_COMPILER, INCLUDE_DIR, MARCH, SOURCES (a ;-list, passed with | between files).
foreach(var CXX_COMPILER INCLUDE_DIR MARCH SOURCES)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_narrow_target.cmake: -D${var}=... is required")
  endif()
endforeach()

string(REPLACE "|" ";" sources "${SOURCES}")
set(flags -std=c++20 -fsyntax-only -Wall -Wextra -DHWY_COMPILE_ONLY_STATIC=1 "-I${INCLUDE_DIR}"
    "-march=${MARCH}")
set(failed "")
foreach(source IN LISTS sources)
  execute_process(
    COMMAND "${CXX_COMPILER}" ${flags} "${source}"
    RESULT_VARIABLE result
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
  if(NOT result EQUAL 0)
    string(APPEND failed "\n--- ${source} (-march=${MARCH}):\n${out}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "these sources do not compile for -march=${MARCH}:${failed}")
endif()
list(LENGTH sources count)
message(STATUS "${count} source(s) compile for -march=${MARCH}")

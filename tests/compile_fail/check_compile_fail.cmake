# check_compile_fail.cmake -- passes when SOURCE fails to compile with the project's flags and the
# compiler's message contains every `// expect: TEXT` line of SOURCE, and its first error (from
# the first "error: " to the next) every `// expect-first: TEXT` line: the message a user reads
# first must be the helpful one.
# Inputs: CXX_COMPILER, SOURCE, INCLUDE_DIR, MARCH.
foreach(var CXX_COMPILER SOURCE INCLUDE_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_compile_fail.cmake: -D${var}=... is required")
  endif()
endforeach()

set(flags -std=c++20 -fsyntax-only -Wall -Wextra -DHWY_COMPILE_ONLY_STATIC=1 "-I${INCLUDE_DIR}")
if(MARCH)
  list(APPEND flags "-march=${MARCH}")
endif()
execute_process(
  COMMAND "${CXX_COMPILER}" ${flags} "${SOURCE}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)

if(result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must be rejected at compile time")
endif()

# Every `// KEY: TEXT` line of SOURCE must have its TEXT in `haystack` (`where` names it).
function(expect_all key haystack where)
  file(STRINGS "${SOURCE}" lines REGEX "^// ${key}: ")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^// ${key}: " "" text "${line}")
    string(FIND "${haystack}" "${text}" pos)
    if(pos EQUAL -1)
      message(FATAL_ERROR
        "${SOURCE} failed to compile, but ${where} lacks the expected text\n"
        "  expected: ${text}\n  ${where}: ${haystack}\n  compiler output:\n${out}")
    endif()
    message(STATUS "found expected text in ${where}: ${text}")
  endforeach()
endfunction()

string(FIND "${out}" "error: " first_error)
set(first_message "")
if(NOT first_error EQUAL -1)
  math(EXPR after "${first_error} + 7")
  string(SUBSTRING "${out}" ${after} -1 rest)
  string(FIND "${rest}" "error: " next_error)
  string(SUBSTRING "${rest}" 0 ${next_error} first_message)
endif()
expect_all(expect "${out}" "the message")
expect_all(expect-first "${first_message}" "the first error")

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

file(STRINGS "${SOURCE}" expect_lines REGEX "^// expect: ")
foreach(line IN LISTS expect_lines)
  string(REGEX REPLACE "^// expect: " "" text "${line}")
  string(FIND "${out}" "${text}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR
      "${SOURCE} failed to compile, but the message lacks the expected text\n"
      "  expected: ${text}\n  compiler output:\n${out}")
  endif()
  message(STATUS "found expected diagnostic: ${text}")
endforeach()

string(FIND "${out}" "error: " first_error)
set(first_message "")
if(NOT first_error EQUAL -1)
  math(EXPR after "${first_error} + 7")
  string(SUBSTRING "${out}" ${after} -1 rest)
  string(FIND "${rest}" "error: " next_error)
  string(SUBSTRING "${rest}" 0 ${next_error} first_message)
endif()
file(STRINGS "${SOURCE}" expect_first_lines REGEX "^// expect-first: ")
foreach(line IN LISTS expect_first_lines)
  string(REGEX REPLACE "^// expect-first: " "" text "${line}")
  string(FIND "${first_message}" "${text}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR
      "${SOURCE} failed to compile, but its first error lacks the expected text\n"
      "  expected: ${text}\n  first error: ${first_message}\n  compiler output:\n${out}")
  endif()
  message(STATUS "found expected first diagnostic: ${text}")
endforeach()

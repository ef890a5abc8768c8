# WaveemuDoctestAddTests.cmake -- run after a test binary is built: lists its doctest cases and
# writes CTEST_FILE with one add_test per case (see WaveemuDiscoverTests.cmake).
# Inputs: TEST_EXECUTABLE, CTEST_FILE, TEST_PREFIX, TEST_LABEL, TEST_TIMEOUT, TEST_WORKING_DIR.
execute_process(
  COMMAND "${TEST_EXECUTABLE}" --list-test-cases
  WORKING_DIRECTORY "${TEST_WORKING_DIR}"
  OUTPUT_VARIABLE output
  ERROR_VARIABLE errors
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR
    "listing the test cases of ${TEST_EXECUTABLE} failed (exit ${result}):\n${output}${errors}")
endif()

# CMake lists split on ; and treat [ ] and \ specially: hide them while splitting into lines.
string(REPLACE "\\" "@WE_BS@" output "${output}")
string(REPLACE ";" "@WE_SC@" output "${output}")
string(REPLACE "[" "@WE_LB@" output "${output}")
string(REPLACE "]" "@WE_RB@" output "${output}")
string(REPLACE "\n" ";" lines "${output}")

set(script "")
set(count 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "" OR line MATCHES "^===+$" OR line MATCHES "^@WE_LB@doctest@WE_RB@ ")
    continue()
  endif()
  string(REPLACE "@WE_BS@" "\\" name "${line}")
  string(REPLACE "@WE_SC@" ";" name "${name}")
  string(REPLACE "@WE_LB@" "[" name "${name}")
  string(REPLACE "@WE_RB@" "]" name "${name}")
  # doctest's --test-case takes a comma-separated list of patterns; \, is a literal comma.
  string(REPLACE "," "\\," filter "${name}")
  set(test "${TEST_PREFIX}${name}")
  string(APPEND script
    "add_test([==[${test}]==] [==[${TEST_EXECUTABLE}]==] [==[--test-case=${filter}]==])\n"
    "set_tests_properties([==[${test}]==] PROPERTIES"
    " WORKING_DIRECTORY [==[${TEST_WORKING_DIR}]==]"
    # A filter that matched no case would pass silently; make it fail.
    " FAIL_REGULAR_EXPRESSION [==[test cases: 0 \\|]==]")
  if(TEST_LABEL)
    string(APPEND script " LABELS [==[${TEST_LABEL}]==]")
  endif()
  if(TEST_TIMEOUT)
    string(APPEND script " TIMEOUT ${TEST_TIMEOUT}")
  endif()
  string(APPEND script ")\n")
  math(EXPR count "${count} + 1")
endforeach()

if(count EQUAL 0)
  # A binary with no test case yet still shows up, and passes only if it runs cleanly.
  string(APPEND script "add_test([==[${TEST_PREFIX}(no test cases)]==] [==[${TEST_EXECUTABLE}]==])\n")
endif()
file(WRITE "${CTEST_FILE}" "${script}")

# WaveemuDiscoverTests.cmake -- waveemu_discover_tests(target PREFIX p LABEL l TIMEOUT s):
# registers each doctest case of `target` as its own ctest test, listed after every build.
# Like doctest's doctest_discover_tests, but test names may hold any of ; [ ] , " (doctest's
# own script splits names on ; and unbalanced brackets and then breaks the whole test list).
set(_WAVEEMU_DOCTEST_ADD_TESTS "${CMAKE_CURRENT_LIST_DIR}/WaveemuDoctestAddTests.cmake")

function(waveemu_discover_tests target)
  cmake_parse_arguments(arg "" "PREFIX;LABEL;TIMEOUT" "" ${ARGN})
  set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_tests.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    BYPRODUCTS "${ctest_file}"
    COMMAND "${CMAKE_COMMAND}"
      "-DTEST_EXECUTABLE=$<TARGET_FILE:${target}>"
      "-DCTEST_FILE=${ctest_file}"
      "-DTEST_PREFIX=${arg_PREFIX}"
      "-DTEST_LABEL=${arg_LABEL}"
      "-DTEST_TIMEOUT=${arg_TIMEOUT}"
      "-DTEST_WORKING_DIR=${CMAKE_CURRENT_BINARY_DIR}"
      -P "${_WAVEEMU_DOCTEST_ADD_TESTS}"
    VERBATIM)
  # Relink (and so re-list) when the listing script changes.
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_WAVEEMU_DOCTEST_ADD_TESTS}")
  # Before the first build there is no list yet: a placeholder test says so instead of silence.
  file(WRITE "${include_file}"
    "if(EXISTS \"${ctest_file}\")\n"
    "  include(\"${ctest_file}\")\n"
    "else()\n"
    "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()

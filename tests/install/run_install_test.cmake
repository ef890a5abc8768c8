# run_install_test.cmake -- installs the build at BUILD_DIR into WORK_DIR/prefix, then configures,
# builds and runs the consumer project at CONSUMER_DIR with find_package(waveemu).
# Inputs: BUILD_DIR, WORK_DIR, CONSUMER_DIR, CXX_COMPILER, CXX_FLAGS, BUILD_TYPE, GENERATOR.
set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${prefix}" "${consumer_build}")

function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message(STATUS "[${step}] ${out}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "install test: step '${step}' failed (exit ${result})")
  endif()
endfunction()

run(install "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
if(NOT EXISTS "${prefix}/include/waveemu/emulator/emulator.h")
  message(FATAL_ERROR "install test: headers missing under ${prefix}/include/waveemu")
endif()
run(configure "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${consumer_build}" -G "${GENERATOR}"
  "-DCMAKE_PREFIX_PATH=${prefix}"
  "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
  "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
  "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
run(build "${CMAKE_COMMAND}" --build "${consumer_build}")
run(run "${consumer_build}/waveemu_consumer")

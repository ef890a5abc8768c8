# expect_exit_2.cmake -- runs `CLI mips INPUT --out OUT` and requires exit code 2 and an error line.
execute_process(COMMAND ${CLI} mips ${INPUT} --out ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "not a PNG")
  message(FATAL_ERROR "expected exit 2 and 'not a PNG', got ${rc}: ${err}")
endif()

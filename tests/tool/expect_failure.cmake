# Runs EXE with ARGS; passes when it exits with EXPECT_EXIT and stderr contains EXPECT_STDERR.
execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL EXPECT_EXIT)
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_EXIT}\nstdout: ${out}\nstderr: ${err}")
endif()
string(FIND "${err}" "${EXPECT_STDERR}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "stderr lacks '${EXPECT_STDERR}':\n${err}")
endif()

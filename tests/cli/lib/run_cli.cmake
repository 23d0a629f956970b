# SPDX-License-Identifier: MIT
# Shared by the CLI checks (not a test itself: CTest runs tests/cli/*.cmake only).
# Starts with an empty OUT folder; run_cli(EXPECTED_EXIT args...) runs schedlab-cli and fails the
# check on another exit code, leaving stdout in LAST_OUT and stderr in LAST_ERR.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

function(run_cli expected)
  execute_process(COMMAND ${CLI} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL ${expected})
    message(FATAL_ERROR "schedlab-cli ${ARGN}: exit ${rc}, expected ${expected}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(LAST_OUT "${out}" PARENT_SCOPE)
  set(LAST_ERR "${err}" PARENT_SCOPE)
endfunction()

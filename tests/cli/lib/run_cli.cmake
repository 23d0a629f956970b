# SPDX-License-Identifier: MIT
# Shared by the CLI checks (not a test itself: CTest runs tests/cli/*.cmake only).
# Starts with an empty OUT folder; run_cli(EXPECTED_EXIT args...) runs schedlab-cli in OUT and fails
# the check on another exit code, leaving stdout in LAST_OUT and stderr in LAST_ERR. With CLI_ENV
# set (NAME=VALUE...), it runs in that environment.
cmake_policy(VERSION 3.20)   # scripts run with -P start with old policies (IN_LIST needs CMP0057)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

function(run_cli expected)
  set(command ${CLI})
  if(CLI_ENV)
    set(command ${CMAKE_COMMAND} -E env ${CLI_ENV} ${CLI})
  endif()
  execute_process(COMMAND ${command} ${ARGN} WORKING_DIRECTORY ${OUT}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL ${expected})
    message(FATAL_ERROR "schedlab-cli ${ARGN}: exit ${rc}, expected ${expected}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(LAST_OUT "${out}" PARENT_SCOPE)
  set(LAST_ERR "${err}" PARENT_SCOPE)
endfunction()

# expect_match(REGEX TEXT WHAT): fails the check, naming WHAT, unless TEXT matches REGEX; leaves
# the first group in CMAKE_MATCH_1.
function(expect_match regex text what)
  if(NOT "${text}" MATCHES "${regex}")
    message(FATAL_ERROR "${what}: no match for '${regex}' in:\n${text}")
  endif()
  set(CMAKE_MATCH_1 "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

# evaluated_makespan(RESULT args...): runs `evaluate args...`, requires "valid", returns the makespan.
function(evaluated_makespan result)
  run_cli(0 evaluate ${ARGN})
  expect_match(": valid" "${LAST_OUT}" "evaluate ${ARGN}")
  expect_match("makespan +([0-9.e+]+)" "${LAST_OUT}" "evaluate ${ARGN}")
  set(${result} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

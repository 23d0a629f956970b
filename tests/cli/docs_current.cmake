# SPDX-License-Identifier: MIT
# docs/cli.md is current: scripts/gen-cli-docs.sh run on this schedlab-cli prints it byte for byte.
# On a difference the check fails with a unified diff and the command that regenerates the file.
# Variables: CLI (schedlab-cli), OUT (scratch directory). Needs bash (the generator is a bash script).
cmake_policy(VERSION 3.20)
set(root ${CMAKE_CURRENT_LIST_DIR}/../..)
set(doc ${root}/docs/cli.md)
set(fresh ${OUT}/cli.md)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

find_program(BASH bash REQUIRED)
execute_process(COMMAND ${BASH} ${root}/scripts/gen-cli-docs.sh ${CLI}
                OUTPUT_FILE ${fresh} ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "scripts/gen-cli-docs.sh ${CLI} failed (exit ${rc}):\n${err}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${doc} ${fresh} RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  find_program(DIFF diff)
  set(shown "(no diff program found; compare ${doc} with ${fresh})")
  if(DIFF)
    execute_process(COMMAND ${DIFF} -u ${doc} ${fresh} OUTPUT_VARIABLE shown)
  endif()
  message(NOTICE "--- docs/cli.md (committed)\n+++ generated from ${CLI} now\n${shown}")   # NOTICE: printed as is
  message(FATAL_ERROR "docs/cli.md is stale: it differs from the help texts of ${CLI} (diff above). "
                      "Fix, from the source root: scripts/gen-cli-docs.sh ${CLI} > docs/cli.md (then commit it)")
endif()
message(STATUS "docs/cli.md matches the help texts of ${CLI}")

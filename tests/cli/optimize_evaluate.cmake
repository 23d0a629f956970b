# SPDX-License-Identifier: MIT
# optimize writes a schedule that evaluate accepts; a corrupted schedule makes evaluate exit 1.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
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

foreach(method list-cp heft random-search)
  set(extra)
  if(method STREQUAL "random-search")
    set(extra --samples 20 --seed 5)
  endif()
  run_cli(0 optimize ${DATA}/jobshop/ft06.txt --format jobshop --method ${method} ${extra}
          --out ${OUT}/ft06-${method}.json --trace ${OUT}/ft06-${method}.trace.json --csv ${OUT}/ft06-${method}.csv)
  if(NOT LAST_OUT MATCHES "makespan")
    message(FATAL_ERROR "optimize printed no summary: ${LAST_OUT}")
  endif()
  foreach(f ${OUT}/ft06-${method}.json ${OUT}/ft06-${method}.trace.json ${OUT}/ft06-${method}.csv)
    if(NOT EXISTS ${f})
      message(FATAL_ERROR "optimize did not write ${f}")
    endif()
  endforeach()
  run_cli(0 evaluate ${DATA}/jobshop/ft06.txt ${OUT}/ft06-${method}.json --format jobshop)
  if(NOT LAST_OUT MATCHES "valid")
    message(FATAL_ERROR "evaluate did not say valid: ${LAST_OUT}")
  endif()
endforeach()

# ft06's optimum is 55: no valid schedule may beat it.
string(REGEX MATCH "makespan +([0-9.]+)" m "${LAST_OUT}")
if(CMAKE_MATCH_1 LESS 55)
  message(FATAL_ERROR "makespan ${CMAKE_MATCH_1} is below ft06's optimum 55")
endif()

# Corrupt every start time (prefix a digit): durations no longer match, evaluate must exit 1.
file(READ ${OUT}/ft06-list-cp.json text)
string(REGEX REPLACE "\"start\": *([0-9])" "\"start\": 1\\1" bad "${text}")
if(bad STREQUAL text)
  message(FATAL_ERROR "could not corrupt the schedule")
endif()
file(WRITE ${OUT}/ft06-corrupt.json "${bad}")
run_cli(1 evaluate ${DATA}/jobshop/ft06.txt ${OUT}/ft06-corrupt.json --format jobshop)
if(NOT LAST_ERR MATCHES "op '|ft06-corrupt")
  message(FATAL_ERROR "evaluate did not name the fault: ${LAST_ERR}")
endif()

# A truncated schedule file is bad input too.
string(SUBSTRING "${text}" 0 40 truncated)
file(WRITE ${OUT}/ft06-truncated.json "${truncated}")
run_cli(1 evaluate ${DATA}/jobshop/ft06.txt ${OUT}/ft06-truncated.json --format jobshop)

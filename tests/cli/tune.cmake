# SPDX-License-Identifier: MIT
# tune on the quick grid with a tiny budget: a ranked table (best first) and a best setting that
# optimize accepts as written.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/smoke.cmake)

run_cli(0 tune --grid quick --top 100 ${SMOKE_tune})
string(REGEX MATCHALL "\n +[0-9]+  rho [^\n]+" rows "${LAST_OUT}")
list(LENGTH rows n)
if(NOT n EQUAL 24)
  message(FATAL_ERROR "tune ranked ${n} settings of the quick grid's 24:\n${LAST_OUT}")
endif()
set(previous 1e308)
foreach(row IN LISTS rows)
  string(REGEX MATCH " (-?[0-9.]+) +[0-9]+ +[0-9]+$" ignored "${row}")
  if(CMAKE_MATCH_1 GREATER previous)
    message(FATAL_ERROR "tune's ranking is not best first: ${CMAKE_MATCH_1} after ${previous}")
  endif()
  set(previous ${CMAKE_MATCH_1})
endforeach()
expect_match("best setting as options: ([^\n]+)" "${LAST_OUT}" "tune")
separate_arguments(best UNIX_COMMAND "${CMAKE_MATCH_1}")
run_cli(0 generate layered --nodes 20 --seed 1 --out ${OUT}/g.json)
run_cli(0 optimize ${OUT}/g.json --method brkga --objective memory --devices 2 --budget 60 ${best} --out ${OUT}/s.json)

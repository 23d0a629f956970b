# SPDX-License-Identifier: MIT
# schedlab-cli study: a study killed with SIGKILL mid-run loses at most the runs in flight, and
# running it again stores every run exactly once (the database's key) with the summary of a study
# never killed; print and merge read it back; a file that is not a study is refused.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
# Mutations caught: runs stored only at the end (the kill would leave none and no partial table),
# a resume that reruns stored runs (the count would pass 24 in the made line), a corrupt file
# opened as an empty study.
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

# four job-shops x list-cp and a 0.3 s random-search x 3 seeds: 24 runs, about 2 s on two workers
file(WRITE ${OUT}/s.study.json "{\"graphs\": [\"${DATA}/jobshop/ft06.txt\", \"${DATA}/jobshop/la01.txt\",
  \"${DATA}/jobshop/la02.txt\", \"${DATA}/jobshop/la03.txt\"], \"seeds\": [1, 2, 3],
  \"methods\": [{\"name\": \"list-cp\"}, {\"name\": \"random-search\", \"time_limit\": 0.3, \"options\": {\"samples\": 100000000}}]}")

# killed after about a second: some runs are stored, not all
execute_process(COMMAND timeout -s KILL 1 ${CLI} study run ${OUT}/s.study.json --db ${OUT}/s.db --threads 2
                WORKING_DIRECTORY ${OUT} RESULT_VARIABLE killed)
if(killed EQUAL 0)
  message(FATAL_ERROR "the study finished within a second: nothing was killed mid-run")
endif()
run_cli(0 study print ${OUT}/s.db --format csv)
string(REGEX MATCHALL "\n" lines "${LAST_OUT}")
list(LENGTH lines rows)
if(NOT rows EQUAL 3)
  message(FATAL_ERROR "the killed study's summary has ${rows} lines, expected a header and 2 methods:\n${LAST_OUT}")
endif()

# resumed: every run once
run_cli(0 study run ${OUT}/s.study.json --db ${OUT}/s.db --threads 2)
expect_match("study: ([0-9]+) runs made, 24 stored" "${LAST_ERR}" "the resumed study")
set(made ${CMAKE_MATCH_1})
if(made EQUAL 0 OR made GREATER 24)   # 24: a machine so loaded that the kill came before the first run was stored
  message(FATAL_ERROR "the resume made ${made} runs of 24")
endif()
run_cli(0 study run --db ${OUT}/s.db)
expect_match("study: 0 runs made, 24 stored" "${LAST_ERR}" "a finished study run again")

# list-cp's costs equal a study never killed (they are deterministic), and merge keeps them
run_cli(0 study run ${OUT}/s.study.json --db ${OUT}/whole.db --threads 2 --format json)
string(JSON whole GET "${LAST_OUT}" methods 0 geomean_ratio_to_bound)
run_cli(0 study print ${OUT}/s.db --format json)
string(JSON resumed GET "${LAST_OUT}" methods 0 geomean_ratio_to_bound)
if(NOT whole STREQUAL resumed)
  message(FATAL_ERROR "list-cp's cost over the bound: ${resumed} resumed, ${whole} never killed")
endif()
run_cli(0 study merge ${OUT}/merged.db ${OUT}/s.db)
expect_match("24 runs added, 24 in" "${LAST_ERR}" "merge")

# a file that is not a study
file(WRITE ${OUT}/junk.db "not a database at all, not even close, just text")
run_cli(1 study print ${OUT}/junk.db)
expect_match("junk.db: not a SchedLab study" "${LAST_ERR}" "a junk database")

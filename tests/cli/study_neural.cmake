# SPDX-License-Identifier: MIT
# A study of the learned methods beside the classic ones (issue 48): `study run` loads the neural
# module when the study names one of its methods (it did not: "unknown method topoformer"), every
# run succeeds and the summary has a row per method; the memory methods in a memory study; a method
# not built for the study's objective is refused before any run, as `optimize` refuses it.
# Mutations caught: a study command that never loads the module, a summary that drops a method,
# a topoformer run on the makespan objective stored as if it were one.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

set(graphs "")
foreach(i 1 2 3 4 5)
  run_cli(0 generate layered --nodes 20 --seed ${i} --out ${OUT}/g${i}.json)
  list(APPEND graphs "\"g${i}.json\"")
endforeach()
string(JOIN ", " graphs ${graphs})

function(check_study name methods objective devices expected_rows)
  file(WRITE ${OUT}/${name}.study.json "{\"graphs\": [${graphs}], \"seeds\": [1], \"objective\": \"${objective}\",
    \"devices\": ${devices}, \"methods\": [${methods}]}")
  run_cli(0 study run ${OUT}/${name}.study.json --db ${OUT}/${name}.db --format csv)
  string(REGEX MATCHALL "\n" lines "${LAST_OUT}")
  list(LENGTH lines rows)
  math(EXPR want "${expected_rows} + 1")
  if(NOT rows EQUAL want)
    message(FATAL_ERROR "${name}: ${rows} summary lines, expected a header and ${expected_rows} methods:\n${LAST_OUT}")
  endif()
  # every run succeeded: the failed column (the 9th) is 0 on every row
  string(REPLACE "\n" ";" table "${LAST_OUT}")
  list(REMOVE_AT table 0)
  foreach(row ${table})
    string(REPLACE "," ";" cells "${row}")
    list(GET cells 0 method)
    list(GET cells 8 failed)
    if(NOT failed EQUAL 0)
      run_cli(0 study print ${OUT}/${name}.db --format json)
      message(FATAL_ERROR "${name}: ${method} failed ${failed} runs:\n${LAST_OUT}")
    endif()
  endforeach()
  # print reads it back without running anything
  run_cli(0 study print ${OUT}/${name}.db)
  set(LAST_OUT "${LAST_OUT}" PARENT_SCOPE)
endfunction()

check_study(makespan "{\"name\": \"list-cp\"}, {\"name\": \"tabu\", \"budget\": 200}, {\"name\": \"brkga-chains\", \"budget\": 200},
  {\"name\": \"gflownet\", \"budget\": 8}, {\"name\": \"regal\", \"budget\": 200}, {\"name\": \"priority-sampler\", \"budget\": 8}"
  makespan 2 6)
foreach(method gflownet regal priority-sampler)
  expect_match("\n${method} budget=8|\n${method} budget=200" "${LAST_OUT}" "the makespan study's ${method} row")
endforeach()
check_study(memory "{\"name\": \"mem-xla-list\"}, {\"name\": \"topoformer\"}, {\"name\": \"regal\", \"budget\": 200}"
  memory 1 3)
expect_match("\ntopoformer " "${LAST_OUT}" "the memory study's topoformer row")

# topoformer is built for memory only: refused before any run, naming the method and the objective
file(WRITE ${OUT}/wrong.study.json "{\"graphs\": [${graphs}], \"objective\": \"makespan\", \"methods\": [{\"name\": \"topoformer\"}]}")
run_cli(1 study run ${OUT}/wrong.study.json --db ${OUT}/wrong.db)
expect_match("topoformer does not optimise makespan" "${LAST_ERR}" "a method for another objective")
if(EXISTS ${OUT}/wrong.db)
  message(FATAL_ERROR "a refused study left a database behind")
endif()

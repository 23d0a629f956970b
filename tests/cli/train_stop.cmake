# SPDX-License-Identifier: MIT
# Ctrl-C (SIGINT) and SIGTERM stop `train` cleanly after the current step, for every trainer: exit
# code 0, its "done: N steps" line with N > 0, and weights and a model card written. The signals
# alternate between trainers. Catches a trainer that ignores the stop request (it would run its
# 10^8 steps until `timeout` kills it 60 s later) and a signal that ends the process at once (exit
# code 130 or 143, no final line).
# Variables: CLI (schedlab-cli), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/registry.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/smoke.cmake)

read_trainers()
set(signal INT)
foreach(model IN LISTS TRAINERS)
  smoke_options(smoke train ${model})
  set(weights ${OUT}/${model}.slw)
  execute_process(COMMAND timeout --preserve-status -s ${signal} -k 60 4
                          ${CLI} train ${model} --seed 2 ${smoke} --steps 100000000 --out ${weights}
                  WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "train ${model} stopped by SIG${signal}: exit ${rc}, expected 0\nstdout: ${out}\nstderr: ${err}")
  endif()
  expect_match("done: ([0-9]+) steps" "${out}" "train ${model} stopped by SIG${signal}")
  if(CMAKE_MATCH_1 LESS 1)
    message(FATAL_ERROR "train ${model} stopped by SIG${signal} before its first step: the check cannot tell")
  endif()
  if(NOT EXISTS ${weights} OR NOT EXISTS ${weights}.card.json)
    message(FATAL_ERROR "train ${model} stopped by SIG${signal} wrote no weights or model card")
  endif()
  message(STATUS "train ${model}: SIG${signal} after ${CMAKE_MATCH_1} steps")
  if(signal STREQUAL "INT")
    set(signal TERM)
  else()
    set(signal INT)
  endif()
endforeach()

# SPDX-License-Identifier: MIT
# Every trainer `train --help` lists runs a smoke training (lib/smoke.cmake), writes weights and a
# model card, and its optimizer schedules with those weights (SCHEDLAB_MODELS_DIR points at them).
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/registry.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/smoke.cmake)

read_trainers()
read_methods()
run_cli(0 methods)
set(methods_text "${LAST_OUT}")
run_cli(0 generate layered --nodes 20 --seed 4 --out ${OUT}/g.json)
foreach(model IN LISTS TRAINERS)
  smoke_options(smoke train ${model})
  set(weights ${OUT}/models/${WEIGHTS_${model}})
  file(MAKE_DIRECTORY ${OUT}/models)
  run_cli(0 train ${model} --seed 2 ${smoke} --out ${weights})
  if(NOT EXISTS ${weights} OR NOT EXISTS ${weights}.card.json)
    message(FATAL_ERROR "train ${model} did not write ${weights} and its model card")
  endif()
  file(READ ${weights}.card.json card)
  string(JSON ignored ERROR_VARIABLE error LENGTH "${card}")
  if(error)
    message(FATAL_ERROR "the model card of ${model} is not JSON: ${error}")
  endif()
  expect_match("train ${model}" "${card}" "the model card of ${model} names its command line")
  # the trainer's method, scheduling with the new weights and no others
  set(CLI_ENV SCHEDLAB_MODELS_DIR=${OUT}/models)
  list(GET OBJECTIVES_${model} 0 objective)
  set(devices 1)   # "[N devices]" in `methods`: a model with per-device heads
  if(methods_text MATCHES "\n${model} [^\n]*\\[([0-9]+) devices\\]")
    set(devices ${CMAKE_MATCH_1})
  endif()
  run_cli(0 optimize ${OUT}/g.json --devices ${devices} --objective ${objective} --method ${model} --budget 8 --out ${OUT}/${model}.json)
  unset(CLI_ENV)
  evaluated_makespan(ignored ${OUT}/g.json --devices ${devices} ${OUT}/${model}.json)
  file(REMOVE_RECURSE ${OUT}/models)
endforeach()

# train gflownet --init: zero steps from given weights write the same parameters back, so the
# optimizer draws the same samples with either file; one step changes them. Catches an --init that
# is ignored (fresh random weights) or that loads the file without copying its parameters.
smoke_options(smoke train gflownet)
run_cli(0 train gflownet --seed 2 ${smoke} --out ${OUT}/init-a.slw)
run_cli(0 train gflownet ${smoke} --seed 3 --steps 0 --init ${OUT}/init-a.slw --out ${OUT}/init-b.slw)
run_cli(0 train gflownet ${smoke} --seed 3 --steps 1 --init ${OUT}/init-a.slw --out ${OUT}/init-c.slw)
file(READ ${OUT}/init-b.slw.card.json card)
expect_match("initialised from init-a.slw" "${card}" "the card of an --init run names the weights it started from")
# The card names files relative to where training ran, never by this machine's absolute paths
# (the run gave them as ${OUT}/...). Catches a command line recorded as typed.
expect_match("--init init-a.slw [^\n]*--out init-b.slw" "${card}" "the card's command names its files relative to the run")
string(FIND "${card}" "${OUT}" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "the model card records this machine's path ${OUT}:\n${card}")
endif()
foreach(w a b c)
  run_cli(0 optimize ${OUT}/g.json --devices 2 --method gflownet --weights ${OUT}/init-${w}.slw --samples 64 --top-k 64
          --target bandwidth --seed 5 --out ${OUT}/init-${w}.json)
  string(REGEX MATCH "top-64 mean [0-9.]+" mean_${w} "${LAST_OUT}")
endforeach()
if(NOT mean_a STREQUAL mean_b OR mean_a STREQUAL "")
  message(FATAL_ERROR "--init --steps 0 changed the model: '${mean_a}' against '${mean_b}'")
endif()
if(mean_a STREQUAL mean_c)
  message(FATAL_ERROR "a step after --init left the samples unchanged ('${mean_a}'): the test cannot tell")
endif()

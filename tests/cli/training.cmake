# SPDX-License-Identifier: MIT
# --training: info, convert, generate, optimize and evaluate on training steps (docs/training-graphs.md).
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

set(squeeze ${DATA}/onnx/light_squeezenet.onnx)

# json_number(JSON_TEXT RESULT key...): a whole number from `info --json` ("123.0" -> 123)
function(json_number text result)
  string(JSON n GET "${text}" ${ARGN})
  string(REGEX REPLACE "\\.0$" "" n "${n}")
  set(${result} ${n} PARENT_SCOPE)
endfunction()

# SqueezeNet: 66 ops, 26 of them Convs with weights: 2 x 66 + 1 + 26 = 159 ops in its training step
run_cli(0 info ${squeeze} --json)
json_number("${LAST_OUT}" forward ops)
json_number("${LAST_OUT}" weights memory param_bytes)
if(NOT forward EQUAL 66)
  message(FATAL_ERROR "SqueezeNet has ${forward} ops, expected 66")
endif()
foreach(rule sgd adam)
  run_cli(0 info ${squeeze} --training ${rule} --json)
  json_number("${LAST_OUT}" ops_${rule} ops)
  json_number("${LAST_OUT}" params_${rule} memory param_bytes)
  string(JSON shown GET "${LAST_OUT}" training)
  if(NOT ops_${rule} EQUAL 159 OR NOT shown STREQUAL rule)
    message(FATAL_ERROR "info --training ${rule}: ${ops_${rule}} ops (expected 159), training '${shown}'")
  endif()
endforeach()
# parameter bytes: forward, gradient and update ops read the weights (3P); Adam's update 2P more
math(EXPR sgd_expected "3 * ${weights}")
math(EXPR adam_extra "${params_adam} - ${params_sgd}")
math(EXPR adam_expected "2 * ${weights}")
if(NOT params_sgd EQUAL sgd_expected OR NOT adam_extra EQUAL adam_expected)
  message(FATAL_ERROR "parameter bytes: sgd ${params_sgd} (expected ${sgd_expected}), adam - sgd ${adam_extra} (expected ${adam_expected})")
endif()
run_cli(0 info ${squeeze} --training adam)
expect_match("its training step \\(adam\\)" "${LAST_OUT}" "info --training adam")

# convert writes the training step; its JSON is a fixed point and reads back with the same ops
run_cli(0 convert ${squeeze} ${OUT}/train.json --training adam)
expect_match("training step, adam\\): 159 ops" "${LAST_OUT}" "convert --training adam")
run_cli(0 convert ${OUT}/train.json ${OUT}/train2.json)
file(SHA256 ${OUT}/train.json h1)
file(SHA256 ${OUT}/train2.json h2)
if(NOT h1 STREQUAL h2)
  message(FATAL_ERROR "converting a training graph's JSON again changed it")
endif()

# generate nn --training: reproducible, 2n + 1 + p ops
run_cli(0 generate nn --nodes 40 --seed 5 --training sgd --out ${OUT}/a.json)
run_cli(0 generate nn --nodes 40 --seed 5 --training sgd --out ${OUT}/b.json)
file(SHA256 ${OUT}/a.json ha)
file(SHA256 ${OUT}/b.json hb)
if(NOT ha STREQUAL hb)
  message(FATAL_ERROR "generate nn --training is not reproducible")
endif()
run_cli(0 info ${OUT}/a.json --json)
json_number("${LAST_OUT}" ops ops)
if(ops LESS 81 OR ops GREATER 121)
  message(FATAL_ERROR "generate nn --nodes 40 --training sgd: ${ops} ops, expected 81..121")
endif()

# a memory order of the training step, re-validated by evaluate on the same training step
run_cli(0 optimize ${squeeze} --training adam --devices 1 --objective memory --method mem-dfs --out ${OUT}/s.json)
run_cli(0 evaluate ${squeeze} ${OUT}/s.json --training adam --devices 1)
expect_match(": valid" "${LAST_OUT}" "evaluate --training adam")
# the schedule is of the training graph: the inference graph refuses it
run_cli(1 evaluate ${squeeze} ${OUT}/s.json --devices 1)

run_cli(2 info ${squeeze} --training rmsprop)
expect_match("--training expects sgd or adam" "${LAST_ERR}" "bad --training")

# SPDX-License-Identifier: MIT
# Every schedlab-cli command line in README.md's sh blocks runs and exits 0, as written but smaller
# (lib/smoke.cmake's options appended), in order, in OUT, on small stand-ins for the files it names.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/smoke.cmake)

file(COPY_FILE ${DATA}/jobshop/ft06.txt ${OUT}/ft06.txt)
file(COPY_FILE ${DATA}/onnx/light_squeezenet.onnx ${OUT}/model.onnx)
run_cli(0 generate layered --nodes 30 --seed 1 --out ${OUT}/graph.json)

file(READ ${CMAKE_CURRENT_LIST_DIR}/../../README.md readme)
string(REGEX MATCHALL "```sh\n[^`]*```" blocks "${readme}")
string(REGEX REPLACE "[ \t]+#[^\n]*" "" blocks "${blocks}")        # comments
string(REGEX REPLACE "\\\\\n *" "" blocks "${blocks}")            # join continued lines
string(REGEX MATCHALL "(build/app/)?schedlab-cli [^\n]*" lines "${blocks}")
set(count 0)
foreach(line IN LISTS lines)
  string(REPLACE " tests/data" " ${DATA}" line "${line}")
  separate_arguments(args UNIX_COMMAND "${line}")
  list(REMOVE_AT args 0)
  smoke_options(smoke ${args})
  string(REPLACE ";" " " shown "${args};${smoke}")
  message(STATUS "README: schedlab-cli ${shown}")
  run_cli(0 ${args} ${smoke})
  math(EXPR count "${count} + 1")
endforeach()
if(count LESS 10)
  message(FATAL_ERROR "found only ${count} schedlab-cli lines in the README's sh blocks")
endif()

# SPDX-License-Identifier: MIT
# The neural methods live in libschedlab-neural.so, loaded on first use (core/plugin/neuralmodule.h):
#  - the executable maps neither LibTorch nor Qt 5 at start (ldd);
#  - a classic run never loads the module (LD_DEBUG=files lists every object the loader opens);
#  - a neural method loads it and runs;
#  - without the module, classic methods still run and a neural one is refused with the reason.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

execute_process(COMMAND ldd ${CLI} OUTPUT_VARIABLE libs RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ldd ${CLI} failed")
endif()
if(libs MATCHES "libtorch|libc10|libQt5|libopencv")
  message(FATAL_ERROR "schedlab-cli maps LibTorch, OpenCV or Qt 5 at start:\n${libs}")
endif()

run_cli(0 generate layered --nodes 30 --seed 1 --out ${OUT}/g.json)
set(CLI_ENV LD_DEBUG=files)
run_cli(0 optimize ${OUT}/g.json --method list-cp --out ${OUT}/classic.json)
if(LAST_ERR MATCHES "schedlab-neural|libtorch")
  message(FATAL_ERROR "a list-cp run loaded the neural module or LibTorch")
endif()
run_cli(0 optimize ${OUT}/g.json --method priority-sampler --greedy 1 --out ${OUT}/neural.json)
expect_match("file=[^ ]*libschedlab-neural.so" "${LAST_ERR}" "priority-sampler loads the module")

set(CLI_ENV SCHEDLAB_NEURAL_MODULE=${OUT}/absent.so)
run_cli(0 optimize ${OUT}/g.json --method heft --out ${OUT}/heft.json)
run_cli(2 optimize ${OUT}/g.json --method gflownet --out ${OUT}/gfn.json)
expect_match("neural methods are unavailable: the neural module libschedlab-neural.so is not installed \\(looked for [^)]*absent.so\\)"
             "${LAST_ERR}" "gflownet without the module")
if(EXISTS ${OUT}/gfn.json)
  message(FATAL_ERROR "a refused run wrote its --out file")
endif()
run_cli(0 methods)
expect_match("note: the neural methods are unavailable" "${LAST_ERR}" "methods without the module")
if(LAST_OUT MATCHES "gflownet")
  message(FATAL_ERROR "methods lists gflownet without the module:\n${LAST_OUT}")
endif()

# a file that is not a SchedLab module is refused by name, not run
file(WRITE ${OUT}/bogus.so "not an ELF file")
set(CLI_ENV SCHEDLAB_NEURAL_MODULE=${OUT}/bogus.so)
run_cli(2 optimize ${OUT}/g.json --method regal --out ${OUT}/regal.json)
expect_match("cannot load [^ ]*bogus.so" "${LAST_ERR}" "a bogus module")

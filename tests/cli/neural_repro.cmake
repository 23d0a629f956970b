# SPDX-License-Identifier: MIT
# Neural inference is reproducible: the same weights, graph and seed give byte-identical schedule
# files whatever OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and --threads are (topoformer greedy,
# sampling and beam; priority-sampler greedy and S(k); gflownet samples).
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

# Both graphs have a degenerate Laplacian eigenspace inside the PE's 20 vectors (layered 40004:
# eigenvalue 1, 6-fold); unpinned, their schedules changed with OPENBLAS_NUM_THREADS.
run_cli(0 generate layered --nodes 40 --seed 40004 --out ${OUT}/memory.json)
run_cli(0 generate layered-typed --nodes 40 --seed 2 --out ${OUT}/typed.json)

set(runs
  "topo-greedy|memory.json|--objective|memory|--method|topoformer|--greedy|1"
  "topo-sample|memory.json|--objective|memory|--method|topoformer|--samples|16|--seed|3"
  "topo-beam|memory.json|--objective|memory|--method|topoformer|--beam|8"
  "ps-greedy|typed.json|--method|priority-sampler|--greedy|1"
  "ps-sample|typed.json|--method|priority-sampler|--samples|32|--seed|3"
  "gfn-sample|memory.json|--devices|4|--method|gflownet|--samples|80|--seed|3")
# OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, --threads
set(settings "1 1 1" "2 2 2" "1 2 1" "2 1 2")

foreach(run ${runs})
  string(REPLACE "|" ";" args "${run}")
  list(POP_FRONT args name graph)
  set(first "")
  foreach(setting ${settings})
    separate_arguments(s UNIX_COMMAND "${setting}")
    list(GET s 0 omp)
    list(GET s 1 blas)
    list(GET s 2 threads)
    set(file ${OUT}/${name}-${omp}${blas}${threads}.json)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env OMP_NUM_THREADS=${omp} OPENBLAS_NUM_THREADS=${blas}
                    ${CLI} optimize ${OUT}/${graph} ${args} --threads ${threads} --out ${file}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${name} (OMP ${omp}, OpenBLAS ${blas}, --threads ${threads}): exit ${rc}\n${out}\n${err}")
    endif()
    if(NOT first)
      set(first ${file})
      continue()
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${first} ${file} RESULT_VARIABLE differ)
    if(differ)
      message(FATAL_ERROR "${name}: ${file} differs from ${first}: the schedule depends on the thread settings")
    endif()
  endforeach()
endforeach()

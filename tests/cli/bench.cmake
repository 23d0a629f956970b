# SPDX-License-Identifier: MIT
# Every bench `bench --help` lists runs with --quick and prints its table header.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/registry.cmake)

# the column headings each bench prints (a new bench needs a line here)
set(header_brkga "evals/s \\(1 th\\).*list-cp gap %.*brkga-order")
set(header_costmodel "makespan eval/s.*memory\\(time\\)/s.*step-clock eval/s")
set(header_heuristics "list-cp +list-mopnr +list-spt +heft")
set(header_search "instance +bound +list-cp +brkga-order.*jobs x mach. +bound.*P +list-cp +brkga-order")
set(header_priority-sampler "\\| +\\| 50 SpeedUp \\| Time \\|.*\\(25,10\\) Makespan")
set(header_topoformer "method +\\| 20 ops")
set(header_topoformer-scale "ops +optimum MiB +classic.*network greedy.*network sample-16.*topoformer default")
set(header_memory-steps "Training steps, one device.*exact-memory .*network greedy.*Real models.*above the optimum: mean")
set(header_targets "method +proxy 1 +proxy top +noisy +bandwidth +latency +GED +d_inv +d_sen")
set(header_regal "method +\\| +mean % better +\\| +better or equal.*gap from best.*above bound.*BRKGA 2x.*Oracle 2x.*room: BRKGA 5K is.*targets \\(REGAL's acceptance bar.*Paper \\(Paliwal et al. 2020, Table 1")
set(header_startup "seconds +\\| +now +\\| +module preloaded.*list-cp, 100 ops.*to a painted layout.*schedlab-cli +maps +[0-9]+ shared libraries at start; LibTorch no, Qt 5 no")
set(header_distributed "\\| ranks \\| s for 4 steps \\| steps/s \\| trajectories/s \\| efficiency \\|.*\\| ranks \\| seconds \\| graphs/s \\| speed-up \\| efficiency \\|")
set(header_gflownet "Table 1 analogue.*method +proxy 1 +proxy top.*brkga-chains .*gen\\..*tabu on each target \\(sees it\\).*Table 2 analogue: erdos-renyi-gfn.*WfCommons trace.*The paper")

read_benches()
foreach(bench IN LISTS BENCHES)
  if(NOT DEFINED header_${bench})
    message(FATAL_ERROR "bench ${bench}: add the table header it prints to ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  run_cli(0 bench ${bench} --quick)
  expect_match("${header_${bench}}" "${LAST_OUT}" "bench ${bench} --quick")
endforeach()

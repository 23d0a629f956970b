# SPDX-License-Identifier: MIT
# optimize writes a schedule that evaluate accepts; a corrupted schedule makes evaluate exit 1.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

foreach(method list-cp heft random-search)
  set(extra)
  if(method STREQUAL "random-search")
    set(extra --samples 20 --seed 5)
  endif()
  run_cli(0 optimize ${DATA}/jobshop/ft06.txt --format jobshop --method ${method} ${extra}
          --out ${OUT}/ft06-${method}.json --trace ${OUT}/ft06-${method}.trace.json --csv ${OUT}/ft06-${method}.csv)
  if(NOT LAST_OUT MATCHES "makespan")
    message(FATAL_ERROR "optimize printed no summary: ${LAST_OUT}")
  endif()
  foreach(f ${OUT}/ft06-${method}.json ${OUT}/ft06-${method}.trace.json ${OUT}/ft06-${method}.csv)
    if(NOT EXISTS ${f})
      message(FATAL_ERROR "optimize did not write ${f}")
    endif()
  endforeach()
  # the trace is JSON with one device thread per machine; the CSV has a header and a row per op
  file(READ ${OUT}/ft06-${method}.trace.json trace)
  string(JSON events LENGTH "${trace}" traceEvents)
  if(events LESS 36)
    message(FATAL_ERROR "the trace has ${events} events, fewer than ft06's 36 ops")
  endif()
  file(STRINGS ${OUT}/ft06-${method}.csv rows)
  list(LENGTH rows nrows)
  list(GET rows 0 header)
  if(NOT nrows EQUAL 37 OR NOT header STREQUAL "op,type,device,start,end,duration,position")
    message(FATAL_ERROR "the CSV has ${nrows} lines (expected 37) and header '${header}'")
  endif()
  evaluated_makespan(ignored ${DATA}/jobshop/ft06.txt ${OUT}/ft06-${method}.json --format jobshop)
endforeach()

# Independent values: the non-delay critical-path list schedule of ft06 is 61 long (recomputed outside
# SchedLab by a 30-line list scheduler; docs/heuristics.md's table has it too); brkga-order, warm-
# started with list-cp, keeps it or improves on it, and cannot beat ft06's proven optimum 55.
evaluated_makespan(cp ${DATA}/jobshop/ft06.txt ${OUT}/ft06-list-cp.json)
if(NOT cp EQUAL 61)
  message(FATAL_ERROR "list-cp's makespan on ft06 is ${cp}, expected 61")
endif()
run_cli(0 optimize ${DATA}/jobshop/ft06.txt --method brkga-order --seed 7 --budget 2000 --out ${OUT}/ft06-brkga-order.json)
evaluated_makespan(b ${DATA}/jobshop/ft06.txt ${OUT}/ft06-brkga-order.json)
if(b GREATER 61 OR b LESS 55)
  message(FATAL_ERROR "brkga-order's makespan on ft06 is ${b}, outside [55 (the optimum), 61 (list-cp)]")
endif()

# Improve from here: tabu and brkga-chains started from list-cp's schedule (61) keep it or improve
# on it, never below the optimum 55; a method that cannot start from a schedule refuses --start,
# naming those that can. Mutations caught: --start ignored (tabu searches from its own start) is not;
# a refusal that only warns.
foreach(method tabu brkga-chains)
  run_cli(0 optimize ${DATA}/jobshop/ft06.txt --method ${method} --seed 3 --budget 300
          --start ${OUT}/ft06-list-cp.json --out ${OUT}/ft06-${method}-from-list-cp.json)
  evaluated_makespan(w ${DATA}/jobshop/ft06.txt ${OUT}/ft06-${method}-from-list-cp.json)
  if(w GREATER 61 OR w LESS 55)
    message(FATAL_ERROR "${method} started from list-cp's 61 gave ${w}, outside [55, 61]")
  endif()
endforeach()
run_cli(2 optimize ${DATA}/jobshop/ft06.txt --method heft --start ${OUT}/ft06-list-cp.json --out ${OUT}/refused.json)
if(NOT LAST_ERR MATCHES "heft cannot start from a given schedule; the methods that can: .*tabu")
  message(FATAL_ERROR "heft with --start: ${LAST_ERR}")
endif()

# Pins: a schedule file pinning j0_o0 to M2 (its machine) and j1_o0 to M1 at rank 0: list-cp and
# tabu keep them and write them (version 2), evaluate checks each file against its pins, heft is
# refused. Mutations caught: --pins ignored (heft would run), the pins or the version not written.
file(READ ${OUT}/ft06-list-cp.json text)
string(JSON text SET "${text}" version 2)
string(JSON text SET "${text}" pins "[{\"op\": \"j0_o0\", \"device\": 2}, {\"op\": \"j1_o0\", \"device\": 1, \"rank\": 0}]")
file(WRITE ${OUT}/ft06-pins.json "${text}")
foreach(method list-cp tabu)
  run_cli(0 optimize ${DATA}/jobshop/ft06.txt --method ${method} --budget 300 --pins ${OUT}/ft06-pins.json
          --out ${OUT}/ft06-${method}-pinned.json)
  file(READ ${OUT}/ft06-${method}-pinned.json pinned)
  string(JSON version GET "${pinned}" version)
  string(JSON pinCount LENGTH "${pinned}" pins)
  if(NOT version EQUAL 2 OR NOT pinCount EQUAL 2)
    message(FATAL_ERROR "${method} with --pins wrote version ${version} with ${pinCount} pins (expected 2 and 2)")
  endif()
  evaluated_makespan(ignored ${DATA}/jobshop/ft06.txt ${OUT}/ft06-${method}-pinned.json)
endforeach()
run_cli(2 optimize ${DATA}/jobshop/ft06.txt --method heft --pins ${OUT}/ft06-pins.json --out ${OUT}/refused.json)
if(NOT LAST_ERR MATCHES "heft cannot keep pinned ops where they are pinned; the methods that can: list-cp")
  message(FATAL_ERROR "heft with --pins: ${LAST_ERR}")
endif()

# Corrupt every start time (prefix a digit): durations no longer match, evaluate must exit 1.
file(READ ${OUT}/ft06-list-cp.json text)
string(REGEX REPLACE "\"start\": *([0-9])" "\"start\": 1\\1" bad "${text}")
if(bad STREQUAL text)
  message(FATAL_ERROR "could not corrupt the schedule")
endif()
file(WRITE ${OUT}/ft06-corrupt.json "${bad}")
run_cli(1 evaluate ${DATA}/jobshop/ft06.txt ${OUT}/ft06-corrupt.json --format jobshop)
if(NOT LAST_ERR MATCHES "op '|ft06-corrupt")
  message(FATAL_ERROR "evaluate did not name the fault: ${LAST_ERR}")
endif()

# A truncated schedule file is bad input too.
string(SUBSTRING "${text}" 0 40 truncated)
file(WRITE ${OUT}/ft06-truncated.json "${truncated}")
run_cli(1 evaluate ${DATA}/jobshop/ft06.txt ${OUT}/ft06-truncated.json --format jobshop)

# Times carry their unit (issue 60): a graph in microseconds (SqueezeNet on a DGX A100) prints its
# makespan scaled with the exact value beside it, evaluate the exact value first; a graph in seconds
# (a WfCommons trace) in s; a job-shop in abstract units keeps "units" (ft06's list schedule: 61).
run_cli(0 optimize ${DATA}/onnx/light_squeezenet.onnx --preset dgx-a100 --method list-cp --out ${OUT}/squeeze.json)
expect_match("\\| makespan [0-9.]+ (µs|ms) \\([0-9.]+ µs\\) \\|" "${LAST_OUT}" "a makespan in µs")
expect_match("gap to lower bound [0-9.]+ (µs|ms) \\(" "${LAST_OUT}" "the bound in µs")
run_cli(0 evaluate ${DATA}/onnx/light_squeezenet.onnx ${OUT}/squeeze.json --preset dgx-a100)
expect_match("makespan +[0-9.]+ µs( \\([0-9.]+ (µs|ms)\\))?\n" "${LAST_OUT}" "evaluate's makespan in µs")
run_cli(0 info ${DATA}/onnx/light_squeezenet.onnx --preset dgx-a100)
expect_match("total work +[0-9.]+ (µs|ms)\ncritical path +[0-9.]+ (µs|ms) \\(mean" "${LAST_OUT}" "info's times in µs")
run_cli(0 optimize ${DATA}/wfcommons/blast-chameleon-small-001.json --method list-cp --out ${OUT}/blast.json)
expect_match("\\| makespan [0-9.]+ s \\([0-9.]+ s\\) \\|" "${LAST_OUT}" "a makespan in s")
run_cli(0 optimize ${DATA}/jobshop/ft06.txt --method list-cp --out ${OUT}/ft06-units.json)
expect_match("\\| makespan 61 units \\|" "${LAST_OUT}" "a makespan in abstract units")

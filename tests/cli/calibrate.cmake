# SPDX-License-Identifier: MIT
# `schedlab-cli calibrate --quick` (the neural module measures with LibTorch) writes this machine's
# device entry where the catalogue reads the user's entries ($XDG_DATA_HOME/schedlab/devices), and
# the catalogue takes it back: `devices --sources` lists "this-machine" without a warning and
# `info --device this-machine` times a graph on it. The entry has its matrix and vector fp32 peaks,
# and every source says it was measured here. No check depends on how fast this machine is.
# Mutations caught: an entry the parser refuses (an efficiency above 1, thresholds out of order), a
# default path elsewhere than the catalogue's directory, a source left unset.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

run_cli(2 calibrate extra)
run_cli(2 calibrate -o)

set(CLI_ENV XDG_DATA_HOME=${OUT}/xdg)
run_cli(0 calibrate --quick)
set(entry ${OUT}/xdg/schedlab/devices/this-machine.json)
expect_match("wrote [^\n]*xdg/schedlab/devices/this-machine.json" "${LAST_OUT}" "calibrate's default output")
expect_match("\ngemm fp32 +512x512x512 " "${LAST_OUT}" "the table's GEMM rows")
expect_match("\ncopy +[0-9]+ [KM]B " "${LAST_OUT}" "the table's copy rows")
if(NOT EXISTS ${entry})
  message(FATAL_ERROR "calibrate --quick wrote no ${entry}")
endif()

file(READ ${entry} json)
string(JSON id GET "${json}" id)
string(JSON kind GET "${json}" kind)
expect_match("^this-machine$" "${id}" "the entry's id")
expect_match("^cpu$" "${kind}" "the entry's kind")
set(measured_here "^measured here by schedlab-cli calibrate on [0-9-]+, .+, LibTorch [0-9.]+, [0-9]+ threads?")
string(JSON source GET "${json}" source)
string(JSON memory_source GET "${json}" memory source)
string(JSON launch_source GET "${json}" launch_source)
string(JSON efficiency_source GET "${json}" efficiency source)
foreach(s source memory_source launch_source efficiency_source)
  expect_match("${measured_here}" "${${s}}" "the entry's ${s}")
endforeach()
string(JSON peaks LENGTH "${json}" peaks)
set(units "")
math(EXPR last "${peaks} - 1")
foreach(i RANGE ${last})
  string(JSON unit GET "${json}" peaks ${i} unit)
  string(JSON dtype GET "${json}" peaks ${i} dtype)
  string(JSON tflops GET "${json}" peaks ${i} tflops)
  string(JSON peak_source GET "${json}" peaks ${i} source)
  expect_match("${measured_here}" "${peak_source}" "the source of the ${unit} ${dtype} peak")
  if(NOT tflops GREATER 0)
    message(FATAL_ERROR "the ${unit} ${dtype} peak is ${tflops} TFLOP/s")
  endif()
  list(APPEND units "${unit}-${dtype}")
endforeach()
foreach(want matrix-fp32 vector-fp32)
  if(NOT want IN_LIST units)
    message(FATAL_ERROR "the entry has no ${want} peak (it has: ${units})")
  endif()
endforeach()

# read back by the catalogue, as the user's own entry
run_cli(0 devices --sources)
expect_match("\nthis-machine +This machine \\(" "${LAST_OUT}" "devices lists the calibrated entry")
if(LAST_ERR MATCHES "left out of the catalogue")
  message(FATAL_ERROR "the catalogue refused the calibrated entry:\n${LAST_ERR}")
endif()
run_cli(0 info ${DATA}/onnx/light_squeezenet.onnx --device this-machine)
unset(CLI_ENV)

# a refused run writes nothing, neither its -o file nor the default one
file(REMOVE_RECURSE ${OUT}/xdg)
set(CLI_ENV XDG_DATA_HOME=${OUT}/xdg)
run_cli(2 calibrate --quick --threads 0 -o ${OUT}/mine.json)
if(EXISTS ${OUT}/mine.json OR EXISTS ${OUT}/xdg)
  message(FATAL_ERROR "a refused calibrate run wrote a file")
endif()

# SPDX-License-Identifier: MIT
# scripts/explore.sh opens the bundled example unless its arguments name a file (issue 48): the
# example is kept with options alone, an option's value is not taken for a file, a file replaces it.
# Mutations caught: the old "${@:-example}" (the example dropped by any option), an option's value
# (--view gantt) counted as a file, a named file followed by the example as well.
# Variables: APP (schedlab), SCRIPT (scripts/explore-args.sh).
function(expect_args want)
  execute_process(COMMAND ${SCRIPT} ${APP} EXAMPLE ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 30)
  string(REPLACE "\n" " " got "${out}")
  string(STRIP "${got}" got)
  if(NOT rc EQUAL 0 OR NOT got STREQUAL want)
    message(FATAL_ERROR "explore-args ${ARGN}: got '${got}' (exit ${rc}), expected '${want}'\n${err}")
  endif()
endfunction()
expect_args("EXAMPLE")
expect_args("--quit-after-paint EXAMPLE" --quit-after-paint)
expect_args("--view gantt --run EXAMPLE" --view gantt --run)
expect_args("-o seed=3 EXAMPLE" -o seed=3)
expect_args("--devices=4 EXAMPLE" --devices=4)
expect_args("--view gantt model.onnx" --view gantt model.onnx)
expect_args("model.onnx --run" model.onnx --run)

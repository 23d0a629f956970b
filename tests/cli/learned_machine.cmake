# SPDX-License-Identifier: MIT
# `calibrate --from MODEL=PROFILE` (no LibTorch): a machine learned from ONNX Runtime's trace of
# AlexNet (tests/data/profiles/ort_small.json) on the A100's roofline, written where the catalogue
# reads the user's entries; `devices --sources` names the profile it was fitted on; `info --device`
# times the graph on it, differently from the A100 it was fitted from. Bad pairs are usage errors.
# Mutations caught: an entry without its fit or its sources, a fit the estimates ignore, a default
# path elsewhere than the catalogue's directory.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

set(alexnet ${DATA}/onnx/light_bvlc_alexnet.onnx)
run_cli(2 calibrate --from ${alexnet})
expect_match("MODEL=PROFILE pairs" "${LAST_ERR}" "a pair without '='")
run_cli(2 calibrate --from ${alexnet}=${DATA}/profiles/ort_small.json --device no-such-device)
expect_match("--device no-such-device: no such catalogue entry" "${LAST_ERR}" "an unknown base")

set(CLI_ENV XDG_DATA_HOME=${OUT}/xdg)
run_cli(0 calibrate --from ${alexnet}=${DATA}/profiles/ort_small.json --device a100-sxm4-80gb --id ort-test)
expect_match("type Conv +[0-9]+ ops +launch" "${LAST_OUT}" "the fitted Conv term")
expect_match("wrote [^\n]*xdg/schedlab/devices/ort-test.json \\(--device ort-test\\)" "${LAST_OUT}" "the entry's default path")
run_cli(0 devices --sources)
expect_match("ort-test [^\n]*\n[^\n]*\n[^\n]*fitted to 1 profile of its runtime" "${LAST_OUT}" "the entry in the catalogue")
expect_match("fitted to: light_bvlc_alexnet.onnx with ort_small.json: onnxruntime" "${LAST_OUT}" "the profile it was fitted on")
run_cli(0 info ${alexnet} --device ort-test --json)
string(JSON learned GET "${LAST_OUT}" total_work)
run_cli(0 info ${alexnet} --device a100-sxm4-80gb --json)
string(JSON roofline GET "${LAST_OUT}" total_work)
if(learned EQUAL roofline)
  message(FATAL_ERROR "the learned machine times AlexNet as its base does (${learned})")
endif()

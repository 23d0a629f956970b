# SPDX-License-Identifier: MIT
# Real time from the command line (docs/time.md): `devices` lists the catalogue and the presets;
# --preset re-times a model on a real machine and says so ("times: ... roofline"); --device N x a
# catalogue device; --profile applies measured times (here ONNX Runtime's trace of AlexNet) and a
# profile of another model is refused naming the file, with how many ops match; --target
# measured:FILE judges a schedule on measured times; bad input (an unknown preset, two machines,
# more devices than the preset has, a broken entry in the user's catalogue) is refused or left
# out by name; shared links by default, --free-links and --shared-links (at the end). Mutations
# caught: --preset ignored (nominal times kept), a profile applied to another model, a measured
# target that reads the estimate, a user file that breaks the catalogue, a shared-links schedule
# the validator does not replay, a preset whose links are free by default.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

set(alexnet ${DATA}/onnx/light_bvlc_alexnet.onnx)
set(squeezenet ${DATA}/onnx/light_squeezenet.onnx)
set(CLI_ENV XDG_DATA_HOME=${OUT}/xdg)   # no user entries but the ones made here

run_cli(0 devices)
foreach(id a100-sxm4-80gb h100-sxm5-80gb l4 v100-sxm2-32gb epyc-7763 dgx-a100 2x-dgx-h100 4x-l4-pcie4 cpu-host)
  expect_match("\n${id} " "${LAST_OUT}" "devices lists ${id}")
endforeach()

# the nominal device, then the DGX A100's roofline: other durations, the preset named
run_cli(0 info ${squeezenet})
expect_match("times +the nominal device's roofline \\(1 TFLOP/s, 100 GB/s\\)" "${LAST_OUT}" "info's times line")
run_cli(0 info ${squeezenet} --preset dgx-a100)
expect_match("devices +8 \\(DGX A100" "${LAST_OUT}" "the preset's 8 devices")
expect_match("times +NVIDIA A100 SXM4 80 GB roofline: 66 ops estimated" "${LAST_OUT}" "the preset's times")
run_cli(0 optimize ${squeezenet} --method list-cp --out nominal.json)
evaluated_makespan(nominal ${squeezenet} nominal.json)
run_cli(0 optimize ${squeezenet} --method list-cp --preset dgx-a100 --out dgx.json)
evaluated_makespan(dgx ${squeezenet} dgx.json --preset dgx-a100)
if(nominal STREQUAL dgx)
  message(FATAL_ERROR "--preset dgx-a100 left the makespan at the nominal device's ${nominal}")
endif()
# the schedule carries its machine: evaluated without --preset, on the DGX A100 all the same
evaluated_makespan(carried ${squeezenet} dgx.json)
if(NOT carried STREQUAL dgx)
  message(FATAL_ERROR "the schedule made on the DGX A100 evaluated to ${carried} without --preset, ${dgx} with it")
endif()
run_cli(0 info ${squeezenet} --device h100-sxm5-80gb --devices 2)
expect_match("devices +2 \\(2 x NVIDIA H100" "${LAST_OUT}" "--device with --devices")

# measured times: ORT's trace of AlexNet (20 of its 24 ops ran under their own names)
run_cli(0 info ${alexnet} --profile ${DATA}/profiles/ort_small.json)
expect_match("times +measured on [^\n]*: 20 of 24 ops" "${LAST_OUT}" "the profile's times line")
run_cli(0 optimize ${alexnet} --profile ${DATA}/profiles/ort_small.json --method list-cp --out ort.json)
expect_match("as measured \\(ONNX Runtime's order, 2 threads\\): makespan [0-9]" "${LAST_OUT}" "the run's own order as a schedule")
# a profile of another model: refused, naming the file and the count
file(WRITE ${OUT}/other.json "{\"format\": \"schedlab-profile\", \"version\": 1, \"model\": \"x.onnx\", \"fingerprint\": \"model-fnv1a64:0000000000000001\", \"device\": \"d\", \"created\": \"c\", \"tool\": \"t\", \"ops\": [{\"name\": \"n0\", \"type\": \"Conv\", \"median_us\": 5, \"spread_us\": 0, \"repetitions\": 3}], \"unmeasured\": []}")
run_cli(1 info ${squeezenet} --profile ${OUT}/other.json)
expect_match("other.json" "${LAST_ERR}" "the refused profile named")
expect_match("of another model" "${LAST_ERR}" "why the profile is refused")
expect_match("1 of 66 ops match" "${LAST_ERR}" "how many ops match")

# a measured target: SqueezeNet (branches: a 2-device schedule overlaps ops) measured here; the
# schedule judged on the measured times has another speedup than on the estimate
run_cli(0 profile ${squeezenet} --repeats 2 --warmup 0 -o ${OUT}/sq.profile.json)
run_cli(0 optimize ${squeezenet} --method list-cp --devices 2 --out sq.json)
run_cli(0 evaluate ${squeezenet} sq.json --devices 2 --target measured:${OUT}/sq.profile.json)
expect_match("speedup \\(proxy\\) +([0-9.e+-]+)" "${LAST_OUT}" "the proxy's speedup")
set(proxy ${CMAKE_MATCH_1})
expect_match("speedup \\(measured\\) +([0-9.e+-]+)" "${LAST_OUT}" "the measured target's speedup")
if(proxy STREQUAL CMAKE_MATCH_1)
  message(FATAL_ERROR "the measured target gave the proxy's speedup ${proxy}")
endif()
run_cli(2 evaluate ${squeezenet} sq.json --devices 2 --target measured)
expect_match("measured:FILE" "${LAST_ERR}" "measured without a file")

# bad machines
run_cli(1 info ${squeezenet} --preset dgx-z9)
expect_match("unknown preset 'dgx-z9' \\(one of: [^)]*dgx-a100" "${LAST_ERR}" "an unknown preset")
run_cli(1 info ${squeezenet} --device tpu-v9)
expect_match("unknown device 'tpu-v9'" "${LAST_ERR}" "an unknown device")
run_cli(2 info ${squeezenet} --preset dgx-a100 --device l4)
run_cli(2 info ${squeezenet} --preset dgx-a100 --devices 9)
expect_match("preset 'dgx-a100' has 8 devices" "${LAST_ERR}" "more devices than the preset")
# a broken entry of the user's catalogue is left out with a warning naming it; the rest stays
file(MAKE_DIRECTORY ${OUT}/xdg/schedlab/devices)
file(WRITE ${OUT}/xdg/schedlab/devices/broken.json "{\"format\": \"schedlab-device\", \"version\": 1, \"id\": \"x\"")
run_cli(0 devices)
expect_match("broken.json[^\n]*left out of the catalogue" "${LAST_ERR}" "the broken entry's warning")
expect_match("\na100-sxm4-80gb " "${LAST_OUT}" "the built-in devices beside it")

# a study on a machine runs (its problems re-timed on the preset, core/study/studyspec.cpp), and an
# unknown preset is refused naming the study file
file(WRITE ${OUT}/m.study.json "{\"graphs\": [\"${squeezenet}\"], \"methods\": [{\"name\": \"list-cp\"}], \"preset\": \"dgx-a100\"}")
run_cli(0 study run ${OUT}/m.study.json --db ${OUT}/m.db --format json)
expect_match("\"failed\": 0" "${LAST_OUT}" "the study's run on the DGX A100")
file(WRITE ${OUT}/bad.study.json "{\"graphs\": [\"${squeezenet}\"], \"methods\": [{\"name\": \"list-cp\"}], \"preset\": \"dgx-z9\"}")
run_cli(1 study run ${OUT}/bad.study.json --db ${OUT}/bad.db)
expect_match("bad.study.json: unknown preset 'dgx-z9'" "${LAST_ERR}" "the study's unknown preset")

# Shared links (docs/time.md, "Shared links"): a preset's links are shared by default and the CLI
# says so; --free-links and --shared-links are refused without a topology and together; a schedule
# made on the preset carries its shared links ("shared": true) and evaluates to the same makespan
# without the option; the same graph's contention-free schedule (--free-links) is refused on the
# shared links (list-cp spreads a layered graph over the 16 H100s, so its transfers meet on the
# NICs' ports) and accepted with --free-links.
run_cli(2 optimize ${squeezenet} --method list-cp --shared-links --out nolinks.json)
expect_match("--shared-links needs a platform with a topology" "${LAST_ERR}" "--shared-links without a topology")
run_cli(2 optimize ${squeezenet} --method list-cp --free-links --out nolinks.json)
expect_match("--free-links needs a platform with a topology" "${LAST_ERR}" "--free-links without a topology")
run_cli(2 optimize ${squeezenet} --method list-cp --preset dgx-a100 --free-links --shared-links --out nolinks.json)
expect_match("give one of --shared-links and --free-links" "${LAST_ERR}" "both link options")
run_cli(0 generate layered --nodes 300 --seed 1 --out ${OUT}/layered.json)
run_cli(0 optimize ${OUT}/layered.json --method list-cp --preset 2x-dgx-h100 --out shared.json)
expect_match("\nlinks: shared" "${LAST_OUT}" "a preset's links shared by default, and said")
evaluated_makespan(shared ${OUT}/layered.json shared.json --preset 2x-dgx-h100 --shared-links)
evaluated_makespan(sharedCarried ${OUT}/layered.json shared.json)
if(NOT sharedCarried STREQUAL shared)
  message(FATAL_ERROR "the shared-links schedule evaluated to ${sharedCarried} from its file, ${shared} with --shared-links")
endif()
run_cli(0 optimize ${OUT}/layered.json --method list-cp --preset 2x-dgx-h100 --free-links --out free.json)
expect_match("\nlinks: free" "${LAST_OUT}" "--free-links said")
run_cli(1 evaluate ${OUT}/layered.json free.json --preset 2x-dgx-h100)
expect_match("arrives over the shared links" "${LAST_OUT}${LAST_ERR}" "contention-free times refused on shared links")
run_cli(0 evaluate ${OUT}/layered.json free.json --preset 2x-dgx-h100 --free-links)

# SPDX-License-Identifier: MIT
# Hostile options and outputs (docs/reliability.md): thread and device counts out of range, the limits knob,
# outputs written all or none, links kept, a stopped run that keeps the existing schedule.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)
set(ft06 ${DATA}/jobshop/ft06.txt)

# --threads 4294967297 once wrapped to 1, --threads 100000 ran for minutes
run_cli(2 optimize ${ft06} --method list-cp --out a.json --threads 4294967297)
expect_match("--threads expects 1\\.\\.256" "${LAST_ERR}" "--threads 4294967297")
run_cli(2 optimize ${ft06} --method list-cp --out a.json --threads 100000)
run_cli(2 optimize ${ft06} --method list-cp --out a.json --devices 5000)
expect_match("--devices expects 1\\.\\.4096" "${LAST_ERR}" "--devices 5000")

# the limits: listed, lowered per call (naming the knob), from the environment, bad keys refused
run_cli(0 limits)
expect_match("edge-chain = 2000" "${LAST_OUT}" "limits")
run_cli(1 --limit ops=10 info ${ft06})
expect_match("ft06.txt.*36 operations" "${LAST_ERR}" "--limit ops=10")
run_cli(0 info ${ft06} --limit=ops=36)
set(CLI_ENV SCHEDLAB_LIMITS=devices=3)
run_cli(1 info ${ft06})
expect_match("6 machines is more than this reader accepts.*'devices' limit, 3" "${LAST_ERR}" "SCHEDLAB_LIMITS=devices=3")
set(CLI_ENV SCHEDLAB_LIMITS=nonsense=3)
run_cli(2 limits)
expect_match("SCHEDLAB_LIMITS: unknown limit 'nonsense'" "${LAST_ERR}" "bad SCHEDLAB_LIMITS")
unset(CLI_ENV)

# 1e308 durations: info printed inf with exit 0 and heft died of SIGSEGV
file(WRITE ${OUT}/inf.json [=[{"ops": [{"name": "a", "duration": 1e308}, {"name": "b", "duration": 1e308}],
 "tensors": [{"producer": "a", "consumers": ["b"], "bytes": 4}]}]=])
run_cli(1 info inf.json)
expect_match("inf.json: op 'a': duration 1e\\+308 is above the limit" "${LAST_ERR}" "1e308 durations")
run_cli(1 optimize inf.json --method heft --out inf-schedule.json)

# all outputs or none: a --trace that cannot be written leaves --out as it was
file(WRITE ${OUT}/a.json "previous")
run_cli(1 optimize ${ft06} --method list-cp --out a.json --trace /dev/full)
file(READ ${OUT}/a.json kept)
if(NOT kept STREQUAL "previous")
  message(FATAL_ERROR "--out was replaced although --trace failed")
endif()

# a symbolic link stays a link; the file behind it gets the schedule
file(WRITE ${OUT}/behind.json "old")
file(CREATE_LINK behind.json ${OUT}/link.json SYMBOLIC)
run_cli(0 optimize ${ft06} --method list-cp --out link.json)
if(NOT IS_SYMLINK ${OUT}/link.json)
  message(FATAL_ERROR "--out replaced the symbolic link with a regular file")
endif()
file(READ ${OUT}/behind.json written)
expect_match("schedlab-schedule" "${written}" "the file behind the link")
# a device is written in place, never replaced
run_cli(0 optimize ${ft06} --method list-cp --out /dev/null)

# Ctrl-C: the stopped run's schedule does not replace an existing file unless --force
find_program(TIMEOUT timeout)
if(TIMEOUT)
  run_cli(0 generate layered --nodes 400 --seed 1 --out l400.json)
  file(WRITE ${OUT}/keep.json "previous")
  execute_process(COMMAND ${TIMEOUT} -s INT 5 ${CLI} optimize l400.json --method brkga --budget 1000000000 --out keep.json
                  WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  file(READ ${OUT}/keep.json kept)
  if(NOT kept STREQUAL "previous")
    message(FATAL_ERROR "a stopped run replaced an existing schedule (exit ${rc}): ${err}")
  endif()
  expect_match("kept the existing keep.json" "${err}" "Ctrl-C on an existing --out")
endif()

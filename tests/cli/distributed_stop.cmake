# SPDX-License-Identifier: MIT
# Distributed runs stop when asked and open no door they do not need (docs/distributed.md,
# "Stopping a run" and "What a run exposes"):
# - a lone rank interrupted in the rendezvous is gone within 7 s of the signal, says what it waited
#   for and which ranks were missing, and exits with 128 + the signal (catches a rank that waits out
#   its timeout: the timeout here is 120 s). The signal comes 5 s after the start, room for a
#   machine 5x slower than ours to load LibTorch and reach the rendezvous;
# - a local 2-rank run has no listening socket on an address other than loopback at any moment
#   (catches c10d's TCPStore, which listens on every interface: the watch sees it in a run across
#   hosts);
# - a rank killed mid-run is named by its peer (catches the old "a peer rank stopped").
# Variables: CLI (schedlab-cli), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/smoke.cmake)
set(LAUNCH ${CMAKE_CURRENT_LIST_DIR}/../../scripts/launch-local.sh)
set(LISTENERS ${CMAKE_CURRENT_LIST_DIR}/lib/listeners.sh)
string(RANDOM LENGTH 4 ALPHABET 0123456789 r)
math(EXPR port "20000 + ${r}")
smoke_options(smoke train priority-sampler)

# --- a lone rank, interrupted while it waits in the rendezvous ---
foreach(case "0;INT;130;missing rank\\(s\\) 1 to join the rendezvous" "1;TERM;143;rank 0 to open the rendezvous"
             "0;TERM;143;bench")
  list(GET case 0 rank)
  list(GET case 1 signal)
  list(GET case 2 code)
  list(GET case 3 waits)
  set(command train priority-sampler --seed 2 ${smoke} --out ${OUT}/lone.slw)
  if(waits STREQUAL "bench")   # a sharded bench takes no stop token: the signal ends it at once
    set(command bench heuristics --quick)
    set(waits "missing rank\\(s\\) 1 to join the rendezvous")
  endif()
  string(TIMESTAMP t0 "%s")
  execute_process(COMMAND timeout --preserve-status -k 30 -s ${signal} 5
                          ${CLI} ${command} --world-size 2 --rank ${rank} --master 127.0.0.1:${port} --dist-timeout 120
                  WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(TIMESTAMP t1 "%s")
  math(EXPR took "${t1} - ${t0}")
  if(NOT rc EQUAL ${code})
    message(FATAL_ERROR "rank ${rank} alone, SIG${signal} after 5 s: exit ${rc}, expected ${code}\nstderr: ${err}")
  endif()
  expect_match("rank ${rank} of 2 [^\n]*interrupted \\(SIG${signal}\\) while waiting for ${waits}" "${err}"
               "rank ${rank} alone, SIG${signal}")
  if(took GREATER 12)
    message(FATAL_ERROR "rank ${rank} alone took ${took} s to stop after SIG${signal} at 5 s")
  endif()
endforeach()

# --- a local run: no listener beyond loopback while it runs ---
execute_process(COMMAND ${LISTENERS} ${LAUNCH} 2 ${CLI} train priority-sampler --seed 2 ${smoke} --steps 40
                        --out ${OUT}/local.slw
                WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a local 2-rank run (exit ${rc}; 3: a listener on another address than loopback):\n${out}\n${err}")
endif()
# The watch can tell: a run across hosts (a master named by this host's name, so not loopback)
# hosts c10d's TCPStore, which listens on every interface. Alone, rank 0 waits up to 120 s for its
# peer, and the watch ends it as soon as it sees the listener: the verdict never races the clock.
cmake_host_system_information(RESULT host QUERY HOSTNAME)
math(EXPR other_port "${port} + 1")
execute_process(COMMAND ${LISTENERS} --until-public ${CLI} bench heuristics --quick --world-size 2 --rank 0
                        --master ${host}:${other_port} --dist-timeout 120
                WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "the listener watch missed the TCPStore of a run across hosts (exit ${rc}):\n${out}\n${err}")
endif()

# --- a rank killed mid-run is named by the other ---
string(JOIN " " smoke_line ${smoke})
execute_process(COMMAND bash -c "
  export WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=${port}
  RANK=0 '${CLI}' train priority-sampler --seed 2 ${smoke_line} --steps 100000000 --validate-every 1000000 --dist-timeout 60 --out r0.slw > rank0.out 2> rank0.err &
  r0=$!
  RANK=1 '${CLI}' train priority-sampler --seed 2 ${smoke_line} --steps 100000000 --validate-every 1000000 --dist-timeout 60 --out r1.slw 2>/dev/null &
  r1=$!
  for i in $(seq 1200); do grep -q data-parallel rank0.out 2>/dev/null && break; sleep 0.1; done   # rendezvous done (up to 120 s)
  sleep 1
  kill -KILL $r1
  timeout 120 tail --pid=$r0 -f /dev/null
  wait $r0"
                WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc)
file(READ ${OUT}/rank0.err err)
if(rc EQUAL 0)
  message(FATAL_ERROR "rank 0 went on after rank 1 was killed:\n${err}")
endif()
expect_match("rank 1 is gone" "${err}" "rank 0 names the rank that left")

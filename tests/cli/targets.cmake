# SPDX-License-Identifier: MIT
# --target (Zhang et al. 2023, §5; docs/costmodel.md): evaluate prints hand-checked speedups of a
# worked example on the targets; optimize runs the candidate protocol and agrees with evaluate; bad
# uses exit 2.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

# rho = (2, 1, 3, 1); o1 -> o3 (3 bytes), o2 -> o3, o4 (1 byte): one memory unit = 4 bytes, mean
# duration 1.75. Schedule d0 = [o1, o3], d1 = [o2, o4]: proxy makespan 5 (speedup 1.4); bandwidth
# target: o3 waits for o2's byte, 1 + 14/4 + 0.175, makespan 7.675; latency: 1 + 0.175/4 + 3.5,
# makespan 7.54375 (docs/costmodel.md's table).
file(WRITE ${OUT}/example.json [=[
{"format": "schedlab-graph", "version": 1,
 "ops": [{"name": "o1", "duration": 2}, {"name": "o2", "duration": 1},
         {"name": "o3", "duration": 3}, {"name": "o4", "duration": 1}],
 "tensors": [{"name": "t1", "producer": "o1", "consumers": ["o3"], "bytes": 3},
             {"name": "t2", "producer": "o2", "consumers": ["o3", "o4"], "bytes": 1}]}
]=])
file(WRITE ${OUT}/a.json [=[
{"format": "schedlab-schedule", "version": 1, "devices": ["dev0", "dev1"],
 "order": ["o1", "o2", "o4", "o3"],
 "ops": [{"id": "o1", "device": 0, "start": 0, "end": 2}, {"id": "o2", "device": 1, "start": 0, "end": 1},
         {"id": "o3", "device": 0, "start": 2, "end": 5}, {"id": "o4", "device": 1, "start": 1, "end": 2}],
 "transfers": [{"tensor": "t2", "from": 1, "to": 0, "start": 1, "end": 1}]}
]=])
run_cli(0 evaluate ${OUT}/example.json ${OUT}/a.json --devices 2 --target bandwidth,latency,proxy)
expect_match("speedup \\(proxy\\) +1.4\n" "${LAST_OUT}" "proxy speedup")
expect_match("speedup \\(bandwidth\\) *0.91205211726" "${LAST_OUT}" "bandwidth speedup 7 / 7.675")
expect_match("speedup \\(latency\\) +0.92792046396" "${LAST_OUT}" "latency speedup 7 / 7.54375")
run_cli(0 evaluate ${OUT}/example.json ${OUT}/a.json --devices 2)
if(LAST_OUT MATCHES "speedup")
  message(FATAL_ERROR "evaluate printed speedups without --target:\n${LAST_OUT}")
endif()

# optimize: the protocol's report; list-cp's one candidate is what evaluate measures.
run_cli(0 generate erdos-renyi-gfn --nodes 20 --seed 2 --out ${OUT}/er.json)
run_cli(0 optimize ${OUT}/er.json --method list-cp --target all --target-seed 3 --out ${OUT}/cp.json)
expect_match("candidates: top 1 of 1 by proxy speedup" "${LAST_OUT}" "list-cp candidates")
expect_match("target bandwidth: best of 1 ([0-9.]+)" "${LAST_OUT}" "list-cp bandwidth")
set(best ${CMAKE_MATCH_1})
expect_match("target noisy: best of 1 ([0-9.]+)" "${LAST_OUT}" "list-cp noisy")
set(noisy ${CMAKE_MATCH_1})
run_cli(0 evaluate ${OUT}/er.json ${OUT}/cp.json --target noisy,bandwidth --target-seed 3)
expect_match("speedup \\(bandwidth\\) *([0-9.]+)" "${LAST_OUT}" "evaluate bandwidth")
string(SUBSTRING "${CMAKE_MATCH_1}" 0 5 evaluated)
string(SUBSTRING "${best}" 0 5 reported)
if(NOT evaluated STREQUAL reported)
  message(FATAL_ERROR "optimize reports bandwidth speedup ${best}, evaluate ${CMAKE_MATCH_1}")
endif()
expect_match("speedup \\(noisy\\) *([0-9.]+)" "${LAST_OUT}" "evaluate noisy")
string(SUBSTRING "${CMAKE_MATCH_1}" 0 5 evaluated)
string(SUBSTRING "${noisy}" 0 5 reported)
if(NOT evaluated STREQUAL reported)
  message(FATAL_ERROR "optimize reports noisy speedup ${noisy}, evaluate ${CMAKE_MATCH_1} (same --target-seed)")
endif()

# BRKGA: its final population, at most --top-k of it.
run_cli(0 optimize ${OUT}/er.json --method brkga-order --budget 300 --target latency --top-k 10 --out ${OUT}/b.json)
expect_match("candidates: top 10 of 10 by proxy speedup" "${LAST_OUT}" "brkga-order candidates")
expect_match("diversity of the top 10: GED [0-9.]+ \\| d_inv [0-9.]+ \\| d_sen [0-9.]+ \\| distinct [0-9]+" "${LAST_OUT}"
             "brkga-order diversity")

# bad uses
run_cli(2 evaluate ${OUT}/example.json ${OUT}/a.json --devices 2 --target fast)
expect_match("unknown target model 'fast'" "${LAST_ERR}" "unknown target")
run_cli(2 optimize ${OUT}/er.json --method list-cp --target noisy --objective memory --out ${OUT}/x.json)
run_cli(2 optimize ${OUT}/er.json --method list-cp --target noisy --top-k 0 --out ${OUT}/x.json)
run_cli(2 optimize ${OUT}/er.json --method list-cp --target noisy --target-seed -1 --out ${OUT}/x.json)
file(WRITE ${OUT}/slow.json [=[
{"format": "schedlab-platform", "version": 1, "devices": [{"name": "a"}, {"name": "b"}],
 "interconnect": {"latency": 1, "bandwidth": 1000}}
]=])
run_cli(2 optimize ${OUT}/er.json --method list-cp --target bandwidth --platform ${OUT}/slow.json --out ${OUT}/x.json)
expect_match("free transfers" "${LAST_ERR}" "costly interconnect")

# bench targets: a method with options (brkga-order's population changes its candidates); an
# undeclared option and a malformed one are usage errors naming them.
run_cli(0 bench targets --families layered-gfn --nodes 12 --graphs 1 --budget 60 --top-k 5 --target bandwidth
        --methods "brkga-order,brkga-order:population=20")
expect_match("brkga-order:population=20 +[0-9.]+" "${LAST_OUT}" "a row for the method with options")
run_cli(2 bench targets --quick --methods "brkga-order:popultion=20")
expect_match("has no option 'popultion'" "${LAST_ERR}" "undeclared method option")
run_cli(2 bench targets --quick --methods "brkga-order:population")
expect_match("expected key=value" "${LAST_ERR}" "malformed method option")

# SPDX-License-Identifier: MIT
# generate is reproducible; info reads what it wrote; the memory orders run end to end.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)

run_cli(0 generate layered --nodes 60 --seed 3 --out ${OUT}/a.json)
run_cli(0 generate layered --nodes 60 --seed 3 --out ${OUT}/b.json)
file(SHA256 ${OUT}/a.json ha)
file(SHA256 ${OUT}/b.json hb)
if(NOT ha STREQUAL hb)
  message(FATAL_ERROR "generate is not reproducible")
endif()

run_cli(0 info ${OUT}/a.json --json --devices 3)
string(JSON ops GET "${LAST_OUT}" ops)
if(NOT ops EQUAL 60)
  message(FATAL_ERROR "info reports ${ops} ops, expected 60")
endif()
string(JSON lb GET "${LAST_OUT}" bounds makespan)
run_cli(0 info ${OUT}/a.json --devices 4)
if(NOT LAST_OUT MATCHES "lower bounds")
  message(FATAL_ERROR "info printed no bounds: ${LAST_OUT}")
endif()

foreach(method mem-dfs mem-bfs mem-postorder mem-xla-list exact-memory)
  run_cli(0 optimize ${OUT}/a.json --devices 1 --objective memory --method ${method} --out ${OUT}/${method}.json)
  run_cli(0 evaluate ${OUT}/a.json ${OUT}/${method}.json --devices 1)
endforeach()
foreach(method list-cp list-mopnr list-spt heft)
  run_cli(0 optimize ${OUT}/a.json --devices 3 --method ${method} --out ${OUT}/${method}.json)
  run_cli(0 evaluate ${OUT}/a.json ${OUT}/${method}.json --devices 3)
  string(REGEX MATCH "makespan +([0-9.e+]+)" m "${LAST_OUT}")
  if(CMAKE_MATCH_1 LESS lb)
    message(FATAL_ERROR "${method}: makespan ${CMAKE_MATCH_1} below the lower bound ${lb}")
  endif()
endforeach()

# every family of the papers' generators (Gagrani et al. 2022's layered graphs; Jeon et al. 2023's
# layered-typed, Erdős-Rényi, SBM and job-shop): generated, read back by info, scheduled on its own
# platform
foreach(family layered layered-typed erdos-renyi sbm jobshop)
  run_cli(0 generate ${family} --nodes 40 --seed 2 --out ${OUT}/${family}.json)
  run_cli(0 info ${OUT}/${family}.json --json)
  string(JSON ops GET "${LAST_OUT}" ops)
  if(ops LESS 30 OR ops GREATER 40)
    message(FATAL_ERROR "${family}: info reports ${ops} ops for --nodes 40")
  endif()
  run_cli(0 optimize ${OUT}/${family}.json --method list-cp --out ${OUT}/${family}-s.json)
  run_cli(0 evaluate ${OUT}/${family}.json ${OUT}/${family}-s.json)
endforeach()

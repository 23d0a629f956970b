# SPDX-License-Identifier: MIT
# Every registered method (from `schedlab-cli methods`), for every objective it declares and with
# every option `optimize --help` lists for it (at the default shown), writes a schedule that
# evaluate accepts; every objective it does not declare is refused with exit 2.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/registry.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/smoke.cmake)

read_methods()
set(graph ${OUT}/g.json)
run_cli(0 generate layered --nodes 24 --seed 5 --out ${graph})
set(problem ${graph} --devices 1)
run_cli(0 methods)
set(methods_text "${LAST_OUT}")
foreach(method IN LISTS METHODS)
  # A learned model with per-device heads says "[N devices]" in `methods`: give it that platform.
  set(problem ${graph} --devices 1)
  if(methods_text MATCHES "\n${method} [^\n]*\\[([0-9]+) devices\\]")
    set(problem ${graph} --devices ${CMAKE_MATCH_1})
  endif()
  foreach(objective makespan memory both)
    set(s ${OUT}/${method}-${objective}.json)
    if(NOT objective IN_LIST OBJECTIVES_${method})
      run_cli(2 optimize ${problem} --objective ${objective} --method ${method} --out ${s})
      string(REPLACE ";" "|" declared "${OBJECTIVES_${method}}")
      expect_match("--objective ${declared}" "${LAST_ERR}" "${method} refusing ${objective}")
      continue()
    endif()
    run_cli(0 optimize ${problem} --objective ${objective} --method ${method} --seed 3 ${OPTIONS_${method}}
            ${SMOKE_optimize} --out ${s})
    expect_match("makespan ([0-9.e+]+)" "${LAST_OUT}" "optimize --method ${method}")
    set(reported ${CMAKE_MATCH_1})
    evaluated_makespan(makespan ${problem} --objective ${objective} ${s})
    if(NOT makespan EQUAL reported)
      message(FATAL_ERROR "${method} (${objective}) reported makespan ${reported}, evaluate finds ${makespan}")
    endif()
  endforeach()
endforeach()

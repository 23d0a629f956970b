# SPDX-License-Identifier: MIT
# What the CLI says it has, so that the checks cover every method, trainer and bench without
# naming them. Include after run_cli.cmake.

# read_methods(): METHODS (registry order) and OBJECTIVES_<method> (declared, the natural one first),
# from `schedlab-cli methods` ("NAME  OBJ,OBJ  summary" lines); OPTIONS_<method>, the method's own
# options at their defaults ("--key value" list), from its group in `optimize --help`, which must
# exist and give the same objectives.
function(read_methods)
  run_cli(0 methods)
  string(REGEX MATCHALL "(^|\n)[a-z0-9-]+ +[a-z,]+ " rows "${LAST_OUT}")
  set(names)
  foreach(row IN LISTS rows)
    string(STRIP "${row}" row)
    string(REGEX MATCH "^([^ ]+) +(.+)$" row "${row}")
    list(APPEND names ${CMAKE_MATCH_1})
    string(REPLACE "," ";" objectives "${CMAKE_MATCH_2}")
    set(OBJECTIVES_${CMAKE_MATCH_1} ${objectives})
  endforeach()
  list(LENGTH names n)
  if(n LESS 2)
    message(FATAL_ERROR "could not read the methods from `schedlab-cli methods`:\n${LAST_OUT}")
  endif()
  set(METHODS ${names} PARENT_SCOPE)
  # optimize --help: "  METHOD (--objective A|B|C):" then one "    --key default  help" line per option
  run_cli(0 optimize --help)
  foreach(method IN LISTS names)
    string(REGEX MATCH "\n  ${method} \\(--objective ([a-z|]+)\\):[^\n]*((\n    --[^\n]+)*)" group "${LAST_OUT}")
    if(NOT group)
      message(FATAL_ERROR "optimize --help has no group for ${method}:\n${LAST_OUT}")
    endif()
    string(REPLACE "|" "," objectives "${CMAKE_MATCH_1}")
    string(REPLACE ";" "," declared "${OBJECTIVES_${method}}")
    if(NOT objectives STREQUAL declared)
      message(FATAL_ERROR "optimize --help gives ${method} the objectives ${objectives}; `methods` says ${declared}")
    endif()
    string(REGEX MATCHALL "\n    --[a-z0-9-]+ [^ ]+" options "${CMAKE_MATCH_2}")
    string(REPLACE "\n    " "" options "${options}")
    string(REPLACE " " ";" options "${options}")
    set(OPTIONS_${method} ${options} PARENT_SCOPE)
    set(OBJECTIVES_${method} ${OBJECTIVES_${method}} PARENT_SCOPE)
  endforeach()
endfunction()

# listed_names(TEXT HEADING RESULT): the first word of each "  name ..." line after the line HEADING
# (the model list of `train --help`, the bench list of `bench --help`).
function(listed_names text heading result)
  string(FIND "${text}" "\n${heading}\n" at)
  if(at LESS 0)
    message(FATAL_ERROR "no '${heading}' list in:\n${text}")
  endif()
  string(SUBSTRING "${text}" ${at} -1 rest)
  string(SUBSTRING "${rest}" 2 -1 tail)   # the list ends at the first blank line after its heading
  string(FIND "${tail}" "\n\n" end)
  if(end GREATER_EQUAL 0)
    string(SUBSTRING "${rest}" 0 ${end} rest)
  endif()
  string(REGEX MATCHALL "\n  [a-z0-9-]+" rows "${rest}")
  string(REPLACE "\n  " "" names "${rows}")
  if(NOT names)
    message(FATAL_ERROR "the '${heading}' list is empty:\n${text}")
  endif()
  set(${result} ${names} PARENT_SCOPE)
endfunction()

# read_trainers(): TRAINERS, from `train --help`; read_benches(): BENCHES, from `bench --help`.
macro(read_trainers)
  run_cli(0 train --help)
  listed_names("${LAST_OUT}" "Models:" TRAINERS)
endmacro()
macro(read_benches)
  run_cli(0 bench --help)
  listed_names("${LAST_OUT}" "Benchmarks:" BENCHES)
endmacro()

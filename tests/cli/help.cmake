# SPDX-License-Identifier: MIT
# The help tells the truth: `optimize --help` has a group per registered method with the objectives
# `methods` declares (read_methods; cli_every_method runs every method with the options listed);
# `train --help` and `bench --help` list what the README runs; the README's methods table and every
# option it names match the CLI.
# Variables: CLI (schedlab-cli), DATA (tests/data), OUT (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/lib/run_cli.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lib/registry.cmake)

read_methods()
read_trainers()
read_benches()
file(READ ${CMAKE_CURRENT_LIST_DIR}/../../README.md readme)

set(all_help)

# trainers and benches: each has its own help; the README runs only listed ones
foreach(model IN LISTS TRAINERS)
  run_cli(0 train ${model} help)
  expect_match("--out" "${LAST_OUT}" "train ${model} help")
  string(APPEND all_help "${LAST_OUT}")
endforeach()
foreach(bench IN LISTS BENCHES)
  run_cli(0 bench ${bench} --help)
  expect_match("--quick" "${LAST_OUT}" "bench ${bench} --help")
  string(APPEND all_help "${LAST_OUT}")
endforeach()
string(REGEX MATCHALL "schedlab-cli (train|bench) [a-z0-9-]+" uses "${readme}")
foreach(use IN LISTS uses)
  string(REGEX MATCH "(train|bench) (.+)$" use "${use}")
  set(list ${TRAINERS})
  if(CMAKE_MATCH_1 STREQUAL "bench")
    set(list ${BENCHES})
  endif()
  if(NOT CMAKE_MATCH_2 IN_LIST list)
    message(FATAL_ERROR "the README runs `${use}` but `${CMAKE_MATCH_1} --help` lists only: ${list}")
  endif()
endforeach()

# the README's methods table names exactly the registered methods
string(REGEX MATCH "\n## Methods\n.*\n## Command line" section "${readme}")
string(REGEX MATCHALL "\n\\|[^|]+\\|[^\n]+" rows "${section}")
string(REGEX MATCHALL "`[a-z0-9-]+`" named "${rows}")
string(REPLACE "`" "" named "${named}")
foreach(method IN LISTS METHODS)
  if(NOT method IN_LIST named)
    message(FATAL_ERROR "the README's methods table does not name ${method}")
  endif()
endforeach()
foreach(method IN LISTS named)
  if(NOT method IN_LIST METHODS)
    message(FATAL_ERROR "the README's methods table names ${method}, which `methods` does not list")
  endif()
endforeach()

# every option the README names appears in some help
run_cli(0 --help)
string(APPEND all_help "${LAST_OUT}")
foreach(command optimize evaluate info convert generate tune sweep)   # (read_methods checked optimize's groups)
  run_cli(0 ${command} --help)
  string(APPEND all_help "${LAST_OUT}")
endforeach()
string(REGEX REPLACE "[^\n]*app/schedlab [^\n]*" "" cli_readme "${readme}")   # not the explorer's lines
string(REGEX REPLACE "[^\n]*(cmake|ctest) --[^\n]*" "" cli_readme "${cli_readme}")   # nor CMake's and CTest's
string(REGEX MATCHALL "--[a-z][a-z0-9-]+" options "${cli_readme}")
list(REMOVE_DUPLICATES options)
foreach(option IN LISTS options)
  if(NOT all_help MATCHES "${option}([^a-z0-9-]|$)")
    message(FATAL_ERROR "the README names ${option}, which no help lists")
  endif()
endforeach()

# SPDX-License-Identifier: MIT
# The benchmarks' walls (app/CMakeLists.txt): app/cli's commands reach app/bench only through
# app/cli/cmd_bench.cpp and app/bench/benchcommand.h; app/bench uses app/cli's shared plumbing
# (schedlab_cli_common), never a command or the command registry. Fails naming the file and the
# include. Mutations caught: a command including app/bench/bench.h; a benchmark including
# app/cli/command.h or app/cli/optimizebatch.h.
cmake_policy(VERSION 3.20)
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(plumbing "args|brkga_fixtures|distargs|interrupt|neural|problemargs|profiledmodels")   # schedlab_cli_common's headers
set(problems "")

file(GLOB cli_sources RELATIVE ${root} ${root}/app/cli/*.h ${root}/app/cli/*.cpp)
foreach(source ${cli_sources})
  file(STRINGS ${root}/${source} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"app/bench/")
  foreach(line ${includes})
    if(NOT (source STREQUAL "app/cli/cmd_bench.cpp" AND line MATCHES "\"app/bench/benchcommand\\.h\""))
      string(APPEND problems "  ${source}: ${line} (only app/cli/cmd_bench.cpp, and only benchcommand.h)\n")
    endif()
  endforeach()
endforeach()

file(GLOB bench_sources RELATIVE ${root} ${root}/app/bench/*.h ${root}/app/bench/*.cpp)
if(NOT bench_sources)
  message(FATAL_ERROR "no sources under ${root}/app/bench")
endif()
foreach(source ${bench_sources})
  file(STRINGS ${root}/${source} includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line ${includes})
    if(line MATCHES "\"app/(gui|cli)/" AND NOT line MATCHES "\"app/cli/(${plumbing})\\.h\"")
      string(APPEND problems "  ${source}: ${line} (app/bench may use app/cli's plumbing only: ${plumbing})\n")
    elseif(line MATCHES "\"(command|cmd_[a-z_]+|optimizebatch)\\.h\"")
      string(APPEND problems "  ${source}: ${line} (a header of app/cli's commands)\n")
    endif()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "The benchmarks' walls are crossed (app/CMakeLists.txt):\n${problems}")
endif()

# SPDX-License-Identifier: MIT
# The house's rooms (docs/architecture.md): arrows point down only, app -> widgets / models -> core.
# Fails naming the file and the include that crosses a wall, and any source that cites a file a
# clone does not have (the development checkouts' spec/ folder).
# Mutations caught: a Qt include in core/, a torch include in widgets/, models/ including widgets/,
# a view including a panel.
cmake_policy(VERSION 3.20)
set(root ${CMAKE_CURRENT_LIST_DIR}/..)

# room: include patterns it must not use (regular expressions on the #include line)
set(forbidden_core "<Q[A-Za-z]*>|<torch/|<ATen/|<c10/|\"(widgets|models|app)/")
set(forbidden_models "<Q[A-Za-z]*>|\"(widgets|app)/")
set(forbidden_widgets "<torch/|<ATen/|<c10/|\"(models|app)/")
# widgets' own floors: mainwindow/ -> panels/ -> views/ -> session/ (Qt Core only: its CMake target
# links nothing else, so a widget include there does not compile)
set(forbidden_widgets/session "\"widgets/(views|panels|mainwindow)/")
set(forbidden_widgets/views "\"widgets/(panels|mainwindow)/")
set(forbidden_widgets/panels "\"widgets/mainwindow/")

set(problems "")
foreach(room core models widgets widgets/session widgets/views widgets/panels app)
  file(GLOB_RECURSE sources RELATIVE ${root} ${root}/${room}/*.h ${root}/${room}/*.cpp)
  foreach(source ${sources})
    file(STRINGS ${root}/${source} includes REGEX "^[ \t]*#[ \t]*include")
    if(DEFINED forbidden_${room})
      foreach(line ${includes})
        if(line MATCHES "${forbidden_${room}}")
          string(APPEND problems "  ${source}: ${line} (${room}/ may not include this)\n")
        endif()
      endforeach()
    endif()
    file(STRINGS ${root}/${source} citations REGEX "spec/[a-z-]+\\.md")
    foreach(line ${citations})
      string(STRIP "${line}" line)
      string(APPEND problems "  ${source}: cites the spec folder, which a clone does not have: ${line}\n")
    endforeach()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "The rooms' walls are crossed (docs/architecture.md):\n${problems}")
endif()
message(STATUS "core, models, widgets and app include only the rooms below them")

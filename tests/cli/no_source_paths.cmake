# SPDX-License-Identifier: MIT
# The executables and the neural module hold no path of the source tree they were built from: an
# installed binary finds its weights and data at run time (core/util/installpaths.h), never
# through a folder of the machine that built it. Catches a path compiled in again (a compile
# definition, or a macro that embeds __FILE__ such as TORCH_CHECK).
# Variables: CLI (schedlab-cli), DATA (tests/data).
get_filename_component(source "${DATA}/../.." ABSOLUTE)
get_filename_component(bin "${CLI}" DIRECTORY)
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" pattern "${source}/")
foreach(file schedlab-cli schedlab libschedlab-neural.so)
  if(NOT EXISTS "${bin}/${file}")
    message(FATAL_ERROR "no ${bin}/${file} to check")
  endif()
  file(STRINGS "${bin}/${file}" hits REGEX "${pattern}")
  if(hits)
    message(FATAL_ERROR "${file} holds paths of the source tree ${source}:\n${hits}")
  endif()
endforeach()

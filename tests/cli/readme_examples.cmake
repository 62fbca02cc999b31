# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every `napkin-cli ...` line of README.md's command-line block with the built CLI: each must exit 0
# and print something, so the README's examples are true as written. Invoked by CTest with CLI and README.
file(STRINGS "${README}" lines)
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^napkin-cli ([^#]*)")
    separate_arguments(args UNIX_COMMAND "${CMAKE_MATCH_1}")
    execute_process(COMMAND "${CLI}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR out STREQUAL "")
      message(FATAL_ERROR "README example failed (exit ${rc}): ${line}\n${err}")
    endif()
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count LESS 10)
  message(FATAL_ERROR "found only ${count} napkin-cli examples in ${README}")
endif()
message(STATUS "${count} README examples ran")

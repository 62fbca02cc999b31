# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop citizen's files, checked by the freedesktop tools a distribution runs on them: the desktop
# entry (desktop-file-validate), the MIME types (xmllint against well-formedness; update-mime-database
# reads them into a scratch database and must know every type), the AppStream metadata (appstreamcli
# validate, no network). A missing tool fails: scripts/install-deps.sh --test installs them.
# Run by CTest with -DSOURCE_DIR=... -DWORK_DIR=...
foreach(tool desktop-file-validate xmllint update-mime-database appstreamcli)
  find_program(path_${tool} ${tool})
  if(NOT path_${tool})
    message(FATAL_ERROR "${tool} not found (scripts/install-deps.sh --test installs it)")
  endif()
endforeach()
function(run_checked)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${ARGN}: ${result}\n${out}${err}")
  endif()
  string(FIND "${out}${err}" "error:" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "${ARGN} reported an error:\n${out}${err}")
  endif()
endfunction()
run_checked("${path_desktop-file-validate}" "${SOURCE_DIR}/resources/napkin.desktop")
run_checked("${path_xmllint}" --noout "${SOURCE_DIR}/resources/napkin-mime.xml")
run_checked("${path_appstreamcli}" validate --no-net "${SOURCE_DIR}/resources/napkin.metainfo.xml")

# The MIME database built from our file alone knows each type, with its glob.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/mime/packages")
configure_file("${SOURCE_DIR}/resources/napkin-mime.xml" "${WORK_DIR}/mime/packages/napkin.xml" COPYONLY)
run_checked("${path_update-mime-database}" "${WORK_DIR}/mime")
file(READ "${WORK_DIR}/mime/globs2" globs)
foreach(entry "application/x-napkin-scenario:*.napkin.json" "application/x-napkin-tour:*.napkin-tour.json"
              "application/x-napkin-hardware-profile:*.napkin-profile.json")
  string(FIND "${globs}" "${entry}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the MIME database lacks '${entry}':\n${globs}")
  endif()
endforeach()
# The shipped lecture tour is named as its type's glob says.
if(NOT EXISTS "${SOURCE_DIR}/resources/tours/lecture.napkin-tour.json")
  message(FATAL_ERROR "resources/tours/lecture.napkin-tour.json is missing")
endif()
# The desktop entry opens scenarios (the positional argument of napkin) and claims no other JSON.
file(READ "${SOURCE_DIR}/resources/napkin.desktop" desktop)
if(NOT desktop MATCHES "MimeType=application/x-napkin-scenario;\n" OR desktop MATCHES "application/json")
  message(FATAL_ERROR "napkin.desktop must claim application/x-napkin-scenario and no plain JSON:\n${desktop}")
endif()

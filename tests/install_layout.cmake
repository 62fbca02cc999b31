# SPDX-License-Identifier: GPL-3.0-or-later
# `cmake --install` into a scratch prefix puts the binaries, the desktop entry, the icon, the MIME types, the
# AppStream metadata, the manual page and the copyright file where desktops, PATH, man and dpkg look for them. Run by CTest with -DBUILD_DIR=... -DPREFIX=...
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${result}")
endif()
foreach(path bin/napkin bin/napkin-cli share/applications/napkin.desktop share/icons/hicolor/scalable/apps/napkin.svg
             share/mime/packages/napkin.xml share/metainfo/invalid.napkin.Napkin.metainfo.xml
             share/man/man1/napkin-cli.1 share/doc/napkin/copyright)
  if(NOT EXISTS "${PREFIX}/${path}")
    message(FATAL_ERROR "not installed: ${path}")
  endif()
endforeach()
file(READ "${PREFIX}/share/applications/napkin.desktop" desktop)
foreach(line "Exec=napkin %f" "Icon=napkin" "Type=Application" "MimeType=application/x-napkin-scenario;")
  string(FIND "${desktop}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "napkin.desktop lacks '${line}'")
  endif()
endforeach()
file(READ "${PREFIX}/share/icons/hicolor/scalable/apps/napkin.svg" icon)
string(FIND "${icon}" "<svg" at)
if(at EQUAL -1)
  message(FATAL_ERROR "napkin.svg is not an SVG")
endif()
execute_process(COMMAND "${PREFIX}/bin/napkin" --version OUTPUT_VARIABLE version RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR NOT version MATCHES "^napkin [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "installed napkin --version: ${result} '${version}'")
endif()

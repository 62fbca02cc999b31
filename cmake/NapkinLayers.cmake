# SPDX-License-Identifier: GPL-3.0-or-later
# The layers, one way: engine ← {cli, widgets} ← app (tests see everything).
#
# A target's include path holds one folder of links, to the source folders of its own layer and of the
# layers below it, and nothing else. `#include "engine/..."` resolves for every target, while an engine
# file that includes "widgets/..." or "app/..." does not compile: the build itself refuses the layering
# violation. (scripts/check-layering.sh also checks the direction between the engine's own domains.)
set(NAPKIN_LAYER_ROOT "${PROJECT_BINARY_DIR}/layers")

function(napkin_define_layer layer)
  set(dir "${NAPKIN_LAYER_ROOT}/${layer}")
  file(MAKE_DIRECTORY "${dir}")
  foreach(folder IN LISTS ARGN)
    if(NOT EXISTS "${dir}/${folder}")
      file(CREATE_LINK "${PROJECT_SOURCE_DIR}/${folder}" "${dir}/${folder}" SYMBOLIC)
    endif()
  endforeach()
endfunction()

napkin_define_layer(engine engine)
napkin_define_layer(cli engine cli)
napkin_define_layer(widgets engine widgets)
napkin_define_layer(app engine widgets app)
napkin_define_layer(tests engine cli widgets app tests)

# A shared library is installed where the installed programs' RPATH looks (lib/napkin); a static one is not.
# A library's RUNPATH is its own folder: RUNPATH is not inherited, so each library finds its own dependencies.
function(napkin_install_shared target)
  if(NAPKIN_SHARED_LIBS)
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN")
    install(TARGETS ${target} LIBRARY DESTINATION lib/napkin)
  endif()
endfunction()

# napkin_add_library(<target> LAYER <layer> SOURCES <files...> [PUBLIC <targets...>] [PRIVATE <targets...>])
# A library of one folder (static; shared with NAPKIN_SHARED_LIBS): its own files only, warnings on, the layer's include path.
function(napkin_add_library target)
  cmake_parse_arguments(ARG "" "LAYER" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  foreach(source IN LISTS ARG_SOURCES)
    if(source MATCHES "\\.\\.")
      message(FATAL_ERROR "${target}: '${source}' is outside ${CMAKE_CURRENT_SOURCE_DIR}; a target compiles its own folder's files only")
    endif()
  endforeach()
  add_library(${target} ${NAPKIN_LIBRARY_TYPE} ${ARG_SOURCES})
  napkin_install_shared(${target})
  target_include_directories(${target} PUBLIC "${NAPKIN_LAYER_ROOT}/${ARG_LAYER}")
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC} PRIVATE napkin_warnings ${ARG_PRIVATE})
endfunction()

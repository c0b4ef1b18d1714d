# One static library per layer, and a build rule that keeps the layers
# honest. Every library target links only the layers below it, but headers
# share one include root, so an #include that points up would still
# compile: check_layers.py fails the build on any include of a layer that is
# not the layer itself or one it depends on (directly or not), and on a cycle
# between layers.
#
# stinkytofu_add_layer(<target>
#   SOURCES <dir>            the layer's .cpp (and private .h) files
#   HEADERS <dir>            its public headers
#   INCLUDE_PREFIX <prefix>  how others include them ("stinkytofu/ir/")
#   [DEPENDS <layer>...]     the layers it builds on
#   [LINK <target>...]       other libraries (LLVM, simdjson, ...)
#   [EXTRA_SOURCES <file>...]
#   [OWN_PCH])               compiled with flags of its own: precompiles the
#                            common headers itself (cmake/StinkyTofuPch.cmake)
#
# The check reads the folders recursively (a sub-folder that is a layer of its
# own belongs to that layer) and sees quoted and angle-bracket includes alike.
#
# stinkytofu_check_folder(<name> DIRS <dir>... LINKS <target>...)
#   a program's or test's sources (tools/, tests/, the Python module): checked
#   like a layer that nothing includes, allowed the layers it links (interface
#   libraries such as `stinkytofu` stand for the layers they link).

set(STINKYTOFU_LAYER_FILE ${CMAKE_BINARY_DIR}/layers.txt)
set_property(GLOBAL PROPERTY STINKYTOFU_LAYER_LINES "")
set_property(GLOBAL PROPERTY STINKYTOFU_LAYER_FILES "")
# Every layer library, for settings that apply to all (tests/fuzz).
set_property(GLOBAL PROPERTY STINKYTOFU_LAYER_TARGETS "")

# The layers compile their files in batches of eight, each batch one
# translation unit (CMake's unity build): what the files of a batch share
# (LLVM's templates, our headers' inline code, with the sanitizers their
# instrumentation) is compiled once instead of eight times. Eight files of
# lib/transforms took 21.2 s alone and 12.2 s as one batch under the
# sanitizers (docs/performance.md, stop 49). Editing a file recompiles its
# batch. A file's file-local names must therefore differ from those of the
# other files of its layer.
option(STINKYTOFU_UNITY_BUILD "Compile each layer's files in batches of eight" ON)

function(stinkytofu_add_layer TARGET)
  cmake_parse_arguments(L "OWN_PCH" "SOURCES;HEADERS;INCLUDE_PREFIX" "DEPENDS;LINK;EXTRA_SOURCES" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${L_SOURCES}/*.cpp)
  file(GLOB_RECURSE checked CONFIGURE_DEPENDS ${L_SOURCES}/*.cpp ${L_SOURCES}/*.h
       ${L_HEADERS}/*.h ${L_HEADERS}/*.def)
  add_library(${TARGET} ${sources} ${L_EXTRA_SOURCES})
  set_target_properties(${TARGET} PROPERTIES
    UNITY_BUILD ${STINKYTOFU_UNITY_BUILD} UNITY_BUILD_BATCH_SIZE 8)
  target_link_libraries(${TARGET} PUBLIC ${L_DEPENDS} ${L_LINK})
  add_dependencies(${TARGET} stinkytofu_layer_check)
  if(L_OWN_PCH)
    target_precompile_headers(${TARGET} PRIVATE ${STINKYTOFU_PCH_HEADERS})
  else()
    stinkytofu_use_pch(stinkytofu_pch_layers ${TARGET})
  endif()
  file(RELATIVE_PATH src ${PROJECT_SOURCE_DIR} ${L_SOURCES})
  file(RELATIVE_PATH hdr ${PROJECT_SOURCE_DIR} ${L_HEADERS})
  string(JOIN " " deps ${L_DEPENDS})
  set_property(GLOBAL APPEND PROPERTY STINKYTOFU_LAYER_LINES
               "${TARGET} ${L_INCLUDE_PREFIX} ${src} ${hdr} : ${deps}")
  set_property(GLOBAL APPEND PROPERTY STINKYTOFU_LAYER_FILES ${checked})
  set_property(GLOBAL APPEND PROPERTY STINKYTOFU_LAYER_TARGETS ${TARGET})
endfunction()

function(stinkytofu_check_folder NAME)
  cmake_parse_arguments(F "" "" "DIRS;LINKS" ${ARGN})
  set(layers)
  foreach(link IN LISTS F_LINKS)
    get_target_property(type ${link} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(linked ${link} INTERFACE_LINK_LIBRARIES)
      list(APPEND layers ${linked})
    else()
      list(APPEND layers ${link})
    endif()
  endforeach()
  set(dirs)
  set(checked)
  foreach(dir IN LISTS F_DIRS)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/${dir})
    list(APPEND dirs ${rel})
    file(GLOB_RECURSE files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.cpp
         ${PROJECT_SOURCE_DIR}/${dir}/*.h)
    list(APPEND checked ${files})
  endforeach()
  string(JOIN " " dirs ${dirs})
  string(JOIN " " deps ${layers})
  set_property(GLOBAL APPEND PROPERTY STINKYTOFU_LAYER_LINES "${NAME} - ${dirs} : ${deps}")
  set_property(GLOBAL APPEND PROPERTY STINKYTOFU_LAYER_FILES ${checked})
endfunction()

# Called once every layer is declared: writes the layer graph and adds the
# check every layer library waits for.
function(stinkytofu_check_layers)
  get_property(lines GLOBAL PROPERTY STINKYTOFU_LAYER_LINES)
  get_property(files GLOBAL PROPERTY STINKYTOFU_LAYER_FILES)
  string(JOIN "\n" text ${lines})
  file(CONFIGURE OUTPUT ${STINKYTOFU_LAYER_FILE} CONTENT "${text}\n")
  set(stamp ${CMAKE_BINARY_DIR}/layers.stamp)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/check_layers.py
            --root ${PROJECT_SOURCE_DIR} ${STINKYTOFU_LAYER_FILE}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${PROJECT_SOURCE_DIR}/cmake/check_layers.py ${STINKYTOFU_LAYER_FILE} ${files}
    COMMENT "Checking that no #include points up a layer")
  add_custom_target(stinkytofu_layer_check DEPENDS ${stamp})
endfunction()

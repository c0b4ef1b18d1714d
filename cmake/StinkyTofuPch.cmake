# Precompiled headers. Most of a translation unit's compile time goes to
# parsing the standard and LLVM headers every file includes (clang's
# -ftime-trace: 5 of 7 seconds for a small pass), so those are parsed once
# per build into a precompiled header that every C++ target reuses
# (REUSE_FROM). Clang loads a precompiled header only into a translation
# unit compiled with the same language options, target features and
# sanitizers, so there is one holder per set of flags:
#
#   stinkytofu_pch_layers  the layer libraries (stinkytofu_add_layer): -fPIC
#                          when the Python module is built, libFuzzer's
#                          coverage in the sanitizer build
#   stinkytofu_pch_tests   the gtest executables, with gtest/gtest.h and the
#                          IR headers most tests include (tests/unit/TestModules.h)
#
# Each holder compiles one empty file; the header is what it is for.
# sqtt_trace (-msse4.2) precompiles the same headers for itself. Targets
# linking it, the Python module, the fuzz targets (flags of their own, few
# files) and the tools (one file each: a holder would cost what it saves)
# parse their headers as before.
# The libraries' header leaves the project's headers out: a layer must see
# only the layers below it, and editing a header must rebuild only the files
# that include it. llvm/MC/MCContext.h stays out too: it declares
# llvm::Instruction, which files that use both namespaces would then find
# next to stinkytofu::Instruction.
set(STINKYTOFU_PCH_HEADERS
  <algorithm> <functional> <map> <memory> <optional> <string> <utility> <vector>
  <llvm/ADT/ArrayRef.h> <llvm/ADT/DenseMap.h> <llvm/ADT/DenseSet.h>
  <llvm/ADT/STLExtras.h> <llvm/ADT/SmallPtrSet.h> <llvm/ADT/SmallVector.h>
  <llvm/ADT/StringExtras.h> <llvm/ADT/StringMap.h> <llvm/ADT/StringRef.h>
  <llvm/ADT/Twine.h>
  <llvm/Support/Error.h> <llvm/Support/FileSystem.h> <llvm/Support/Format.h>
  <llvm/Support/MemoryBuffer.h> <llvm/Support/SourceMgr.h> <llvm/Support/raw_ostream.h>
  <llvm/MC/MCExpr.h> <llvm/MC/MCInst.h> <llvm/MC/MCInstrInfo.h>
  <llvm/MC/MCRegisterInfo.h> <llvm/MC/MCSubtargetInfo.h> <llvm/MC/MCSymbol.h>)

set(pch_source ${CMAKE_BINARY_DIR}/pch/empty.cpp)
file(CONFIGURE OUTPUT ${pch_source} CONTENT "// Compiled only for its precompiled header.\n")

# stinkytofu_pch_holder(<name> [HEADERS <header>...] [LINK <target>...])
function(stinkytofu_pch_holder NAME)
  cmake_parse_arguments(H "" "" "HEADERS;LINK" ${ARGN})
  add_library(${NAME} OBJECT ${pch_source})
  target_link_libraries(${NAME} PRIVATE stinkytofu_llvm ${H_LINK})
  target_precompile_headers(${NAME} PRIVATE ${STINKYTOFU_PCH_HEADERS} ${H_HEADERS})
endfunction()

stinkytofu_pch_holder(stinkytofu_pch_layers)
# The layer libraries' settings (tests/fuzz, rocisa-bridge/python) go to
# every target of this list.
set_property(GLOBAL APPEND PROPERTY STINKYTOFU_LAYER_TARGETS stinkytofu_pch_layers)
stinkytofu_pch_holder(stinkytofu_pch_tests
  HEADERS <gtest/gtest.h> <stinkytofu/hw/TargetInfo.h> <stinkytofu/ir/Module.h>
          <stinkytofu/ir/StinkyTofuContext.h>
  LINK GTest::gtest stinkytofu_ir)

# stinkytofu_use_pch(<holder> <target>...): <target>s reuse <holder>'s
# precompiled header (they must be compiled with its flags).
function(stinkytofu_use_pch HOLDER)
  foreach(target ${ARGN})
    target_precompile_headers(${target} REUSE_FROM ${HOLDER})
  endforeach()
endfunction()

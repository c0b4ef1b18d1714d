# How StinkyTofu links LLVM: the `stinkytofu_llvm` interface target every
# layer links (headers, definitions, libraries).
#
# The executables link LLVM's static component libraries, the few the project
# uses (STINKYTOFU_LLVM_COMPONENTS), by default. Loading libLLVM-22.so cost
# half of an identity run: the dynamic loader resolves the library's symbols
# and relocations (19 M of the 24 M instructions of a run on a three-line
# file) and faults in its pages (1,650 faults more). A static link keeps what
# is used and resolves it once, at link time (docs/performance.md).
#
# Linked statically are the executables; shared stays what another program
# loads: the Python module, which a process may load beside something linked
# against libLLVM-22.so (two copies of LLVM's globals in one process: every
# cl::opt registered twice). A target that must link the shared library sets
# its property STINKYTOFU_LLVM_SHARED. One process never has both: the
# executables link no library that links libLLVM-22.so.
#
# The sanitizer build links the static libraries too (uninstrumented, as
# Debian built them), with LLVM's headers compiled as LLVM was
# (cmake/LLVMHeadersAsBuilt.h): an ASan + UBSan hello-world takes 53 ms of
# CPU, 128 ms when it loads libLLVM-22.so (its relocations, its
# constructors' allocations through ASan, LeakSanitizer's scan of its data),
# 60 ms with the static libraries, and the tests start thousands of
# sanitized processes (docs/performance.md). The ThreadSanitizer build keeps
# the shared library.

set(STINKYTOFU_LLVM_COMPONENTS
  AMDGPUAsmParser AMDGPUDesc AMDGPUDisassembler AMDGPUInfo AMDGPUUtils
  MC MCParser MCDisassembler Object BinaryFormat TargetParser Support Demangle)
if(STINKYTOFU_TSAN)
  set(static_default OFF)
else()
  set(static_default ON)
endif()
option(STINKYTOFU_STATIC_LLVM
       "Link the executables against LLVM's static component libraries, not libLLVM-22.so"
       ${static_default})

add_library(stinkytofu_llvm INTERFACE)
target_include_directories(stinkytofu_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(stinkytofu_llvm INTERFACE ${LLVM_DEFINITIONS})
if(STINKYTOFU_SANITIZE AND STINKYTOFU_STATIC_LLVM)
  target_compile_options(stinkytofu_llvm INTERFACE
    "$<$<COMPILE_LANGUAGE:CXX>:SHELL:-include ${CMAKE_CURRENT_LIST_DIR}/LLVMHeadersAsBuilt.h>")
endif()

# lld links the static libraries several times faster than ld.bfd, and folds
# identical functions. -fuse-ld=lld finds clang's own (lld-22).
find_program(STINKYTOFU_LLD ld.lld HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
set(use_lld OFF)
if(STINKYTOFU_LLD AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(use_lld ON)
  add_link_options(-fuse-ld=lld)
endif()

if(NOT STINKYTOFU_STATIC_LLVM)
  # The exported `LLVM` target is libLLVM-22.so (LLVM_LINK_LLVM_DYLIB is on).
  target_link_libraries(stinkytofu_llvm INTERFACE LLVM)
  return()
endif()

# LLVMSupport's link interface names zstd::libzstd_shared, which LLVM's
# config defines only when zstd's development files are installed; the
# runtime library is enough to link.
if(NOT TARGET zstd::libzstd_shared)
  find_library(STINKYTOFU_ZSTD NAMES zstd libzstd.so.1 REQUIRED)
  add_library(zstd::libzstd_shared SHARED IMPORTED)
  set_target_properties(zstd::libzstd_shared PROPERTIES IMPORTED_LOCATION ${STINKYTOFU_ZSTD})
endif()
llvm_map_components_to_libnames(llvm_static_libs ${STINKYTOFU_LLVM_COMPONENTS})
set(shared $<BOOL:$<TARGET_PROPERTY:STINKYTOFU_LLVM_SHARED>>)
# Evaluated for the target that links: LLVM or the components.
target_link_libraries(stinkytofu_llvm INTERFACE
  "$<${shared}:LLVM>" "$<$<NOT:${shared}>:${llvm_static_libs}>")
# What the static libraries name but the tools never call (libz3 through
# LLVMSupport's SMT solver) is not loaded at run time; unused sections of
# the static libraries are left out.
target_link_options(stinkytofu_llvm INTERFACE
  "$<$<NOT:${shared}>:LINKER:--as-needed;LINKER:--gc-sections>"
  "$<$<AND:$<NOT:${shared}>,$<BOOL:${use_lld}>>:LINKER:--icf=all>")

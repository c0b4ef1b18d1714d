// Included before everything the sanitizer build compiles (-include, see
// cmake/StinkyTofuLLVM.cmake): LLVM's headers as LLVM itself was compiled.
//
// Under -fsanitize=address, llvm/Support/Compiler.h turns on
// LLVM_ADDRESS_SANITIZER_BUILD, and the inline code of BumpPtrAllocator,
// Recycler and json::Value then poisons and unpoisons memory. LLVM's static
// libraries were compiled without it. Linked together, one copy of an inline
// function wins for both: a slab poisoned by our copy is written by LLVM's
// inlined fast path, which never unpoisons it, and ASan stops the run. With
// the macros as LLVM had them, both sides agree (one definition, as the ODR
// asks). Our own heap and stack stay instrumented either way.
#ifndef STINKYTOFU_LLVM_HEADERS_AS_BUILT_H
#define STINKYTOFU_LLVM_HEADERS_AS_BUILT_H

#include <llvm/Support/Compiler.h>

#undef LLVM_ADDRESS_SANITIZER_BUILD
#define LLVM_ADDRESS_SANITIZER_BUILD 0
#define __asan_poison_memory_region(p, size)
#define __asan_unpoison_memory_region(p, size)

#endif

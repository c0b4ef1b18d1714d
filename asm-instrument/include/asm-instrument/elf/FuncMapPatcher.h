//===- FuncMapPatcher.h - Add or replace .sqtt_funcmap ----------*- C++ -*-===//
//
// Puts a funcmap into an AMDGPU code object without disturbing anything
// else, the way llvm-objcopy --add-section does but byte-preserving:
//
//  - The input is kept byte for byte and the new pieces are appended: the
//    section data, a copy of .shstrtab with the name added (only when the
//    table lacks ".sqtt_funcmap"), and a new section header table. The ELF
//    header's e_shoff/e_shnum and the .shstrtab header change; every other
//    section's bytes, the program headers, symbols and notes stay as they
//    were. The new section is SHT_PROGBITS, not allocated, align 1, so no
//    segment or address changes.
//  - An existing non-allocated PROGBITS `.sqtt_funcmap` holding funcmap text
//    is replaced (its old bytes are zeroed when nothing else covers them).
//    One that is allocated, of another type, or not funcmap text is an error.
//  - Patching is idempotent: when the input is already a patched image (its
//    tail is exactly what this patcher appends), that tail is rebuilt instead
//    of appended again, so patch(patch(x, A), B) == patch(x, B).
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_ELF_FUNCMAPPATCHER_H
#define ASM_INSTRUMENT_ELF_FUNCMAPPATCHER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace stinkytofu::elf {

/// True when \p Contents looks like a funcmap section: printable ASCII, tabs
/// and line breaks, ending in one or more NULs (or empty).
bool isFuncMapSectionText(llvm::StringRef Contents);

/// Returns \p Image with its `.sqtt_funcmap` section set to \p SectionBytes
/// (the text and its NUL, see funcMapSectionContents). \p Image must be an
/// AMDGPU ELF64LE code object or relocatable object.
llvm::Expected<std::string> patchFuncMapSection(llvm::StringRef Image,
                                                llvm::StringRef SectionBytes);

} // namespace stinkytofu::elf

#endif

//===- CodeObjectDisassembler.h - A code object as assembly -----*- C++ -*-===//
//
// Turns one AMDGPU code object (linked `.co`/`.hsaco` or relocatable `.o`)
// into assembly that the `.s` reader reads into the IR and that LLVM MC
// assembles back into the same code bytes:
//  - every executable section, byte for byte: each STT_FUNC symbol's range
//    decoded by LLVM's MCDisassembler and written by its instruction printer,
//    a label `.L<function>_<offset>` (hex, from the function's start) at
//    every branch target, words MC cannot decode kept as `.long` with a
//    comment; bytes between and after functions as padding (`.p2align` when
//    it is the assembler's own alignment fill, else `.fill` of the repeated
//    word, such as the `s_code_end` tail). The code is assembled by LLVM MC
//    and compared with the original: an instruction whose text assembles
//    into other bytes is kept as words too, its text in the comment;
//  - every kernel descriptor (`NAME.kd` objects) as the `.amdhsa_kernel`
//    block LLVM decodes it into;
//  - the AMDGPU metadata note as `.amdgpu_metadata` YAML.
// Data sections other than the descriptors are not carried over
// (docs/binary-input.md).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_DISASM_CODEOBJECTDISASSEMBLER_H
#define STINKYTOFU_DISASM_CODEOBJECTDISASSEMBLER_H

#include "stinkytofu/mc/KnownStatements.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace stinkytofu {

namespace elf {
class ElfImage;
}

struct DisassemblyOptions {
  /// The target id to decode for ("gfx90a:xnack-"); empty: the ELF flags'.
  std::string TargetId;
  /// Only this kernel: its function, descriptor and metadata entry.
  std::string Kernel;
};

/// The kernels of \p Object: the names of its `.kd` descriptors, in address
/// order.
llvm::Expected<std::vector<std::string>> codeObjectKernels(const elf::ElfImage &Object);

/// \p Object as assembly (see the file comment). Errors name no file.
/// \p Known, when given, receives what of the text LLVM MC assembled here
/// (its instruction lines and checked blocks), for the reader.
llvm::Expected<std::string> disassembleCodeObject(const elf::ElfImage &Object,
                                                  const DisassemblyOptions &Options,
                                                  KnownStatements *Known = nullptr);

} // namespace stinkytofu

#endif

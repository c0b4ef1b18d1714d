//===- HighVgprInput.h - Reading VGPRs 256 and up ---------------*- C++ -*-===//
//
// On a target with s_set_vgpr_msb (gfx1250) the `.s` reader, and so the
// `.stir` reader, accepts VGPRs 256..1023 written as such (`v300`,
// `v[510:513]`), which LLVM MC's assembler refuses. MC is given a copy of
// the text of the same length with each of them in its low spelling (the
// register MC encodes: the encoding has only the low 8 bits); afterwards
// each such instruction gets its own text back, and its MC operands the
// logical registers, so that the IR, liveness and `.stir` see v300. Writing
// such an instruction as assembly needs InsertVgprMsbPass first.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ASM_HIGHVGPRINPUT_H
#define STINKYTOFU_ASM_HIGHVGPRINPUT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace stinkytofu {

class Module;
class TargetInfo;

/// The text MC should read instead of \p Text: nullopt when \p Text names
/// no VGPR of 256 or above, or the target has no high VGPRs (MC then
/// reports them as it always did).
std::optional<std::string> textForAssembler(llvm::StringRef Text, const TargetInfo &TI);

/// Gives each instruction of \p M read from \p ForMC (the text MC read)
/// its text in \p Original and the logical registers it names.
llvm::Error restoreHighVgprs(Module &M, llvm::StringRef Original, llvm::StringRef ForMC);

} // namespace stinkytofu

#endif

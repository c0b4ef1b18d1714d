//===- VgprSpelling.h - VGPRs written in assembly text ----------*- C++ -*-===//
//
// The text side of gfx1250's VGPRs 256..1023 (hw/VgprMsb.h has the
// encoding side). LLVM MC's assembler takes only v0..v255 and the
// s_set_vgpr_msb state in front; the IR, `.stir` and our own readers write
// the logical register (`v300`, `v[510:513]`). These functions find VGPRs
// written with numeric indices in statement text (comments and strings
// skipped) and respell them:
//
//   logical  `v300`, `v[300:303]`              what the IR and `.stir` hold
//   encoded  `v44 /*v300*/`, `v[44:47] /*v[300:303]*/`
//            the low register, then the logical one as a comment, as
//            LLVM's printer writes it; the comment is optional on input
//   padded   `v044`, `v[ 44: 47]`               the same length as the
//            logical spelling, what the `.s` reader gives MC so that
//            every byte offset of the file stays where it was
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_VGPRSPELLING_H
#define STINKYTOFU_HW_VGPRSPELLING_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace stinkytofu {

/// A VGPR written with numeric indices: `v7`, `v[8:11]`, `v[12]`.
struct VgprToken {
  size_t Begin = 0, End = 0; ///< the register itself
  /// End of the register and of a `/*vN*/` note right after it (LLVM's
  /// spelling of a high register: `v44 /*v300*/`); End when there is none.
  size_t EndWithNote = 0;
  unsigned First = 0, Count = 1;
  /// The register the note names, if there is one.
  std::optional<unsigned> NoteFirst;
  bool Bracketed = false;
};

/// Calls \p Fn for each VGPR token of \p Text, in order, outside comments
/// (`;`, `//`, `/* */`) and strings.
void forEachVgprToken(llvm::StringRef Text,
                      llvm::function_ref<void(const VgprToken &)> Fn);

/// \p Text with each token \p Fn returns a replacement for replaced, from
/// its Begin to its EndWithNote when \p WithNote, else to its End.
std::string rewriteVgprTokens(
    llvm::StringRef Text, bool WithNote,
    llvm::function_ref<std::optional<std::string>(const VgprToken &)> Fn);

/// The first token naming a VGPR of 256 or above, if any.
std::optional<VgprToken> findHighVgpr(llvm::StringRef Text);

/// `v300` / `v[300:303]` (Count > 1 or \p Bracketed).
std::string logicalVgprSpelling(unsigned First, unsigned Count, bool Bracketed);
/// `v44 /*v300*/`: the low register and, when it differs, the logical one
/// as a note.
std::string encodedVgprSpelling(unsigned First, unsigned Count, bool Bracketed);

/// A copy of \p Text, byte for byte as long, with every VGPR of 256 and
/// above in its padded low spelling; nullopt when there is none.
std::optional<std::string> padHighVgprsToLow(llvm::StringRef Text);

} // namespace stinkytofu

#endif

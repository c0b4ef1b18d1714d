//===- StirWriter.h - Writing the textual IR (`.stir`) ----------*- C++ -*-===//
#ifndef STINKYTOFU_STIR_STIRWRITER_H
#define STINKYTOFU_STIR_STIRWRITER_H

#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu {

/// Writes \p M as `.stir`. Everything needed to give the input assembly back
/// byte for byte is kept: verbatim text as `st.text`, and `leading` / `asm`
/// attributes only where the default spelling would differ.
void writeStir(const Module &M, llvm::raw_ostream &OS);

/// The statement the `.stir` reader rebuilds from an instruction written
/// without `asm`: a tab, the mnemonic, the definitions and the uses (each
/// with its modifiers) joined by ", ". Reader and writer share it, so `asm`
/// is printed exactly when this would not give the source back. \p Offsets,
/// if given, receives where the mnemonic and each operand start in the text.
std::string rebuildStatement(llvm::StringRef Mnemonic, llvm::ArrayRef<std::string> Defs,
                             llvm::ArrayRef<std::string> Uses,
                             llvm::SmallVectorImpl<size_t> *Offsets = nullptr);

/// Whether a block name has the `bb<N>` shape of unlabelled blocks; reader
/// and writer agree through this one test.
bool isSyntheticBlockName(llvm::StringRef Name);

/// The hardware model's issue and latency cycles of an instruction; a macro
/// call sums the issue cycles of its expansion and takes its longest latency.
std::pair<unsigned, unsigned> defaultCycles(const Instruction &I, const TargetInfo &TI);

/// How many leading operands print before `=` (MC's explicit defs).
unsigned numPrintedDefs(const Instruction &I, const TargetInfo &TI);

} // namespace stinkytofu

#endif

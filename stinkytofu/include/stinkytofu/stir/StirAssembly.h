//===- StirAssembly.h - The assembly a `.stir` file stands for ---*- C++ -*-===//
//
// Puts the assembly of a parsed `.stir` module back together (each
// function's text, block labels, instructions in their `asm` or default
// spelling) and has the `.s` reader read it, so that LLVM MC decides what
// every statement means. Diagnostics point into the `.stir` file: the line
// of the statement and, for an instruction, the column of the operand MC
// complains about.
//
// Trailing special registers (`SCC0 = "st.s_cmp_eq_u32"(s0, 1)`,
// `"st.s_cbranch_vccnz"("L", VCC)`) are read either as assembly operands or
// as implicit registers left out of the assembly; an instruction that MC
// rejects one way is read the other way (see docs/stir-format.md).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_STIR_STIRASSEMBLY_H
#define STINKYTOFU_STIR_STIRASSEMBLY_H

#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/stir/StirParser.h"

namespace stinkytofu {

/// The functions of \p M in source order: a `position` attribute puts a
/// function back where the source had it, the others keep their printed
/// order around them. Instructions are numbered in this order.
std::vector<const StirFunc *> sourceOrder(const StirModule &M);

/// Whether \p BB is an empty labelled block that ends \p F (the reference's
/// `^exit:` before the closing brace, a CFG edge's target). Its label, the
/// last thing in the function's text, would read as the start of what
/// follows the function: it is left out of the text and the block is added
/// to the function after reading (StirReader.cpp).
bool isEmptyLastBlock(const StirFunc &F, const StirBlock &BB);

/// Reads the assembly \p M stands for; \p P gives the `.stir` lines for
/// diagnostics, \p File its name.
llvm::Expected<std::unique_ptr<Module>> assembleStir(const StirModule &M, const StirParser &P,
                                                     llvm::StringRef File,
                                                     const ReaderOptions &Opts);

} // namespace stinkytofu

#endif

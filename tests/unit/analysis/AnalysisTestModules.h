//===- AnalysisTestModules.h - Modules from `.s` text for analysis tests ---===//
//
// Reads hand-written assembly, builds every function's CFG with the CFG
// builder, and finds blocks and instructions by label and mnemonic.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TESTS_UNIT_ANALYSIS_ANALYSISTESTMODULES_H
#define STINKYTOFU_TESTS_UNIT_ANALYSIS_ANALYSISTESTMODULES_H

#include "TestModules.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"

#include "gtest/gtest.h"

#include <functional>
#include <memory>
#include <string>

namespace stinkytofu::analysistest {

struct ReadOptions {
  std::string Arch = "gfx90a";
  bool AllowUnknown = false;
  /// Runs on the module before the CFG is built (to attach modifiers).
  std::function<void(Module &)> BeforeCFG;
};

inline ReadOptions forArch(llvm::StringRef Arch) {
  ReadOptions Opts;
  Opts.Arch = Arch.str();
  return Opts;
}

/// A kernel with one single-block counted loop: blocks `k` (preheader),
/// `L_loop` (header, latch and exiting block) and `L_exit`.
inline constexpr const char *CountedLoopKernel = R"(
k:
  s_mov_b32 s0, 0
L_loop:
  s_add_u32 s0, s0, 1
  s_cmp_lt_u32 s0, 10
  s_cbranch_scc1 L_loop
L_exit:
  s_endpgm
)";

/// The module of \p Text with a CFG in every function; null (and a test
/// failure) when the text does not assemble.
inline std::unique_ptr<Module> readModule(llvm::StringRef Text, ReadOptions Opts = {}) {
  // A blank last line keeps the tests independent of how the reader treats
  // the final statement of a file.
  auto M = test::readAsmText(Text.str() + "\n", Opts.Arch, Opts.AllowUnknown);
  if (!M)
    return nullptr;
  if (Opts.BeforeCFG)
    Opts.BeforeCFG(*M);
  for (Function &F : M->functions())
    buildCFG(F);
  return M;
}

/// The block a label starts, in any function of \p M.
inline BasicBlock *blockOf(Module &M, llvm::StringRef Label) {
  for (Function &F : M.functions())
    if (BasicBlock *B = F.findBlock(Label))
      return B;
  ADD_FAILURE() << "no block '" << Label.str() << "'";
  return nullptr;
}

/// The \p Nth (0-based) instruction with mnemonic \p Mnemonic in the
/// functions of \p M, in layout order.
inline Instruction *instOf(Module &M, llvm::StringRef Mnemonic, unsigned Nth = 0) {
  for (Function &F : M.functions())
    for (BasicBlock &B : F.blocks())
      for (Instruction &I : B.instructions())
        if (I.mnemonic() == Mnemonic && Nth-- == 0)
          return &I;
  ADD_FAILURE() << "no instruction '" << Mnemonic.str() << "'";
  return nullptr;
}

/// The first instruction of the block labelled \p Label.
inline Instruction *firstOf(Module &M, llvm::StringRef Label) {
  BasicBlock *B = blockOf(M, Label);
  if (!B || B->empty())
    return nullptr;
  return &B->instructions().front();
}

/// The 32-bit SGPR and VGPR number \p I of \p M's target.
inline llvm::MCRegister sgpr(const Module &M, unsigned I) {
  return M.target().reg32(RegClass::SGPR, I);
}
inline llvm::MCRegister vgpr(const Module &M, unsigned I) {
  return M.target().reg32(RegClass::VGPR, I);
}

inline Function *functionOf(Module &M, llvm::StringRef Name) {
  for (Function &F : M.functions())
    if (F.name() == Name)
      return &F;
  ADD_FAILURE() << "no function '" << Name.str() << "'";
  return nullptr;
}

} // namespace stinkytofu::analysistest

#endif

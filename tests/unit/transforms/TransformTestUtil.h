//===- TransformTestUtil.h - Modules from `.s` text for transform tests ---===//
//
// Reads hand-written assembly (no CFG built: the passes build it), finds
// instructions and blocks, and prints the module back as assembly.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TESTS_UNIT_TRANSFORMS_TRANSFORMTESTUTIL_H
#define STINKYTOFU_TESTS_UNIT_TRANSFORMS_TRANSFORMTESTUTIL_H

#include "TestModules.h"
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/asm/AsmWriter.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

namespace stinkytofu::transformtest {

/// The module of \p Text; null (and a test failure) when it does not
/// assemble. A file's `.amdgcn_target` wins over \p Arch.
inline std::unique_ptr<Module> read(llvm::StringRef Text, llvm::StringRef Arch = "gfx942") {
  return test::readAsmText(Text, Arch);
}

inline std::string asmOf(const Module &M) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (llvm::Error E = writeAsm(M, OS))
    ADD_FAILURE() << llvm::toString(std::move(E));
  return S;
}

/// Every instruction of \p M with mnemonic \p Mnemonic, in layout order.
inline std::vector<Instruction *> all(Module &M, llvm::StringRef Mnemonic) {
  std::vector<Instruction *> Found;
  for (Function &F : M.functions())
    for (BasicBlock &B : F.blocks())
      for (Instruction &I : B.instructions())
        if (I.mnemonic() == Mnemonic)
          Found.push_back(&I);
  return Found;
}

/// The \p Nth (0-based) instruction with mnemonic \p Mnemonic.
inline Instruction *nth(Module &M, llvm::StringRef Mnemonic, unsigned N = 0) {
  std::vector<Instruction *> Found = all(M, Mnemonic);
  if (N >= Found.size()) {
    ADD_FAILURE() << "no instruction '" << Mnemonic.str() << "' #" << N;
    return nullptr;
  }
  return Found[N];
}

/// The LabelData label of \p I, or "" without one.
inline std::string labelOf(const Instruction *I) {
  if (!I)
    return "<null>";
  const LabelData *L = I->getModifier<LabelData>();
  return L ? L->Label : std::string();
}

/// The block labelled \p Label in any function of \p M: the analysis tests'
/// function itself, so that a file (or a unity batch) using both namespaces
/// finds one function, not two equal ones.
using analysistest::blockOf;

/// Names of the successors of \p BB, in order.
inline std::vector<std::string> succNames(const BasicBlock *BB) {
  std::vector<std::string> Names;
  if (BB)
    for (const BasicBlock *S : BB->successors())
      Names.push_back(S->name().str());
  return Names;
}

} // namespace stinkytofu::transformtest

#endif

//===- VerifierFinding.cpp - A verifier's finding, comparable across runs -===//
#include "stinkytofu/transforms/VerifierFinding.h"

#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

char VerifierFindingError::ID;

static InputPosition positionOf(const Instruction &I) {
  return {I.location().Line, I.location().Column};
}

FindingKey makeFindingKey(const Module &M, std::string Rule, MCRegister Reg,
                          const Instruction &Consumer, const Instruction *Producer) {
  FindingKey K;
  K.Rule = std::move(Rule);
  if (Reg.isValid()) {
    RegisterUnits RU(M.target());
    append_range(K.Units, RU.units(Reg));
    llvm::sort(K.Units);
  }
  K.Consumer = positionOf(Consumer);
  if (Producer)
    K.Producer = positionOf(*Producer);
  K.Inserted = K.Consumer.inserted() || (Producer && K.Producer.inserted());
  return K;
}

/// The original instruction nearest to \p I: the first one after it in
/// layout order (Before false), else the last one before it (Before true);
/// null in a function of inserted code only.
struct Anchor {
  const Instruction *Original = nullptr;
  bool Before = false;
};

static Anchor originalAround(const Instruction &I) {
  const BasicBlock *BB = I.parent();
  if (!BB || !BB->parent())
    return {};
  bool Seen = false;
  const Instruction *Last = nullptr;
  for (const BasicBlock &B : BB->parent()->blocks())
    for (const Instruction &J : B.instructions()) {
      if (&J == &I)
        Seen = true;
      else if (J.location().isValid()) {
        if (Seen)
          return {&J, false};
        Last = &J;
      }
    }
  return {Last, true};
}

SourceDiagnostic findingDiagnostic(const Module &M, const Instruction &Consumer,
                                   SourceMgr::DiagKind Kind, std::string Message) {
  if (Consumer.location().isValid())
    return diagnosticAt(M, Consumer, Kind, std::move(Message));
  Anchor A = originalAround(Consumer);
  std::string Text = StringRef(instructionText(Consumer)).trim().str();
  if (!A.Original)
    return diagnosticAt(M, Consumer, Kind, "in inserted code ('" + Text + "'): " + Message);
  return diagnosticAt(M, *A.Original, Kind,
                      std::string("in the code inserted ") + (A.Before ? "after" : "before") +
                          " this instruction ('" + Text + "'): " + Message);
}

} // namespace stinkytofu

//===- ClauseSites.cpp - No marker inside an s_clause ---------------------===//
#include "asm-instrument/sqtt/ClauseSites.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "llvm/ADT/DenseMap.h"

using namespace llvm;

namespace stinkytofu::sqtt {

namespace {
struct ClauseSpan {
  Instruction *Clause; ///< the s_clause
  Instruction *Last;   ///< its last member
};
} // namespace

/// The clause each member of an s_clause span of \p F belongs to.
static DenseMap<const Instruction *, ClauseSpan> clauseMembers(Function &F) {
  DenseMap<const Instruction *, ClauseSpan> Members;
  for (BasicBlock &BB : F.blocks()) {
    std::vector<Instruction *> Insts;
    for (Instruction &I : BB.instructions())
      if (I.kind() != InstKind::Pseudo) // not an instruction of the program
        Insts.push_back(&I);
    for (size_t K = 0; K < Insts.size(); ++K) {
      Instruction &I = *Insts[K];
      if (HardwareModel::roleOf(I.mnemonic()) != InstRole::Clause || I.mcInsts().size() != 1)
        continue;
      const MCInst &MI = I.mcInsts().front();
      if (MI.getNumOperands() != 1 || !MI.getOperand(0).isImm())
        continue;
      // A clause the block ends before its count ends at the block's end.
      size_t End = std::min<size_t>(Insts.size() - 1, K + 1 + MI.getOperand(0).getImm());
      if (End == K)
        continue;
      for (size_t M = K + 1; M <= End; ++M)
        Members[Insts[M]] = {&I, Insts[End]};
    }
  }
  return Members;
}

void placeOutsideClauses(Function &F, std::vector<MarkerSite> &Sites) {
  DenseMap<const Instruction *, ClauseSpan> Members;
  bool Built = false;
  for (MarkerSite &S : Sites) {
    // Edge sites sit before their block's branch, never in a clause. An
    // address trace reads its operation's operands right before it and
    // stays there: it gives up the clause, not the operation's addresses.
    if (!S.Point.Before || !S.SkipBranch.empty() || S.Kind == SiteKind::AddressTrace)
      continue;
    if (!Built) {
      Members = clauseMembers(F);
      Built = true;
    }
    auto It = Members.find(S.Point.Before);
    if (It == Members.end())
      continue;
    S.Point = S.Rank == SiteRank::AfterPrevious ? InsertPoint::after(*It->second.Last)
                                                 : InsertPoint::before(*It->second.Clause);
  }
}

} // namespace stinkytofu::sqtt

//===- ReachingDefs.cpp - Which instructions define a register here -------===//
#include "stinkytofu/analysis/ReachingDefs.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BranchVocabulary.h"

using namespace llvm;

namespace stinkytofu {

ReachingDefs::ReachingDefs(const TargetInfo &TI,
                           SmallPtrSet<const BasicBlock *, 8> OpenEntries,
                           ClobberFn CallClobbers)
    : TI(TI), OpenEntries(std::move(OpenEntries)), CallClobbers(std::move(CallClobbers)) {}

bool ReachingDefs::writes(const Instruction &I, MCRegister Reg) const {
  if (I.kind() == InstKind::Opaque || I.facts().has(IF_Opaque))
    return true;
  const MCRegisterInfo &MRI = TI.regInfo();
  for (MCRegister D : I.facts().Defs)
    if (MRI.regsOverlap(D, Reg))
      return true;
  if (isCall(I) || I.facts().has(IF_Call))
    return !CallClobbers || CallClobbers(I, Reg);
  return false;
}

ReachingDefs::Result ReachingDefs::before(const Instruction &At, MCRegister Reg) const {
  Result R;
  SmallPtrSet<const Instruction *, 4> Found;
  auto AddDef = [&](const Instruction &I) {
    if (Found.insert(&I).second)
      R.Defs.push_back(&I);
  };
  const BasicBlock *BB = At.parent();
  if (!BB || !BB->parent()) {
    R.FromOutside = true;
    return R;
  }
  // Within the block of At, from At backward.
  const auto Insts = BB->instructions();
  for (auto It = std::make_reverse_iterator(At.getIterator()); It != Insts.rend(); ++It)
    if (writes(*It, Reg)) {
      AddDef(*It);
      return R;
    }

  // Then backward over predecessors; each block is scanned from its end once.
  const BasicBlock *First = &BB->parent()->blocks().front();
  SmallPtrSet<const BasicBlock *, 16> Scanned;
  SmallVector<const BasicBlock *, 16> Starts{BB}; // block starts reached
  SmallPtrSet<const BasicBlock *, 16> StartSeen{BB};
  while (!Starts.empty()) {
    const BasicBlock *S = Starts.pop_back_val();
    if (S == First || OpenEntries.count(S)) {
      // The value is unknown on some path: no caller can use the rest.
      R.FromOutside = true;
      return R;
    }
    for (const BasicBlock *P : S->predecessors()) {
      if (!Scanned.insert(P).second)
        continue;
      bool Defined = false;
      for (auto PI = P->instructions().rbegin(); PI != P->instructions().rend(); ++PI)
        if (writes(*PI, Reg)) {
          AddDef(*PI);
          Defined = true;
          break;
        }
      if (!Defined && StartSeen.insert(P).second)
        Starts.push_back(P);
    }
  }
  return R;
}

const Instruction *ReachingDefs::uniqueBefore(const Instruction &At, MCRegister Reg) const {
  Result R = before(At, Reg);
  if (R.FromOutside || R.Defs.size() != 1)
    return nullptr;
  return R.Defs.front();
}

} // namespace stinkytofu

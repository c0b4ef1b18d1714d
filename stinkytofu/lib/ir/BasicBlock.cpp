//===- BasicBlock.cpp - A labelled run of instructions --------------------===//
#include "stinkytofu/ir/BasicBlock.h"

namespace stinkytofu {

Instruction &BasicBlock::insert(InstList::iterator Pos, Instruction I) {
  auto It = Insts.insert(Pos, std::move(I));
  It->setParent(this);
  return *It;
}

void BasicBlock::addSuccessor(BasicBlock *To, EdgeKind Kind) {
  Succs.push_back(To);
  SuccKinds.push_back(Kind);
  To->Preds.push_back(this);
}

void BasicBlock::clearEdges() {
  for (BasicBlock *S : Succs)
    std::erase(S->Preds, this);
  for (BasicBlock *P : Preds) {
    for (size_t I = P->Succs.size(); I-- > 0;)
      if (P->Succs[I] == this) {
        P->Succs.erase(P->Succs.begin() + I);
        P->SuccKinds.erase(P->SuccKinds.begin() + I);
      }
  }
  Succs.clear();
  SuccKinds.clear();
  Preds.clear();
}

} // namespace stinkytofu

//===- VgprMsbStates.cpp - The s_set_vgpr_msb state at a site -------------===//
#include "asm-instrument/sqtt/VgprMsbStates.h"
#include "stinkytofu/hw/InstrFacts.h"

using namespace llvm;

namespace stinkytofu::sqtt {

std::optional<uint8_t> VgprMsbStates::setBy(const Instruction &I) const {
  if (I.kind() != InstKind::Machine)
    return std::nullopt;
  if (I.facts().has(IF_Call))
    return 0;
  ArrayRef<MCInst> MC = I.mcInsts();
  if (MC.size() == 1 && MC[0].getOpcode() == SetOpcode && MC[0].getNumOperands() == 1 &&
      MC[0].getOperand(0).isImm())
    return uint8_t(MC[0].getOperand(0).getImm() & 0xFF); // the low byte sets the state
  return std::nullopt;
}

VgprMsbStates::VgprMsbStates(const Function &F, unsigned SetOpcode) : SetOpcode(SetOpcode) {
  // Forward to a fixed point: a block's entry state is its predecessors'
  // exit states when they agree (Unset ones not yet known), Conflict else.
  DenseMap<const BasicBlock *, std::optional<uint8_t>> SetIn; // last set in the block
  for (const BasicBlock &BB : F.blocks()) {
    std::optional<uint8_t> Last;
    for (const Instruction &I : BB.instructions())
      if (std::optional<uint8_t> S = setBy(I))
        Last = S;
    SetIn[&BB] = Last;
    In[&BB] = Unset;
  }
  auto Out = [&](const BasicBlock &BB) -> int {
    std::optional<uint8_t> Last = SetIn.lookup(&BB);
    return Last ? int(*Last) : In.lookup(&BB);
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const BasicBlock &BB : F.blocks()) {
      int State = Unset;
      if (&BB == &F.blocks().front() || BB.predecessors().empty())
        State = 0;
      for (const BasicBlock *P : BB.predecessors()) {
        int S = Out(*P);
        if (S == Unset || S == State)
          continue;
        State = State == Unset ? S : Conflict;
      }
      if (State != In[&BB]) {
        In[&BB] = State;
        Changed = true;
      }
    }
  }
}

std::optional<uint8_t> VgprMsbStates::at(const InsertPoint &P) const {
  const BasicBlock *BB = P.block();
  std::optional<uint8_t> Last;
  for (const Instruction &I : BB->instructions()) {
    if (&I == P.Before)
      break;
    if (std::optional<uint8_t> S = setBy(I))
      Last = S;
  }
  if (Last)
    return Last;
  int S = In.lookup(BB);
  if (S < 0)
    return std::nullopt;
  return uint8_t(S);
}

} // namespace stinkytofu::sqtt

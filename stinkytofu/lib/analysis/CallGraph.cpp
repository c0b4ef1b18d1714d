//===- CallGraph.cpp - Which functions a call runs ------------------------===//
#include "stinkytofu/analysis/CallGraph.h"
#include "stinkytofu/ir/Modifier.h"

using namespace llvm;

namespace stinkytofu {

const Function *findCallee(const Module &M, StringRef Name) {
  StringRef Resolved = M.resolveAlias(Name);
  for (StringRef N : {Name, Resolved}) {
    for (const Function &F : M.functions())
      if (F.name() == N)
        return &F;
    for (const Function &F : M.functions())
      if (!F.blocks().empty() && F.blocks().front().hasLabel() &&
          F.blocks().front().label() == N)
        return &F;
  }
  return nullptr;
}

SetVector<const Function *> transitiveCallees(const Module &M, const Function &F) {
  SetVector<const Function *> Callees;
  SmallVector<const Function *, 8> Work{&F};
  while (!Work.empty()) {
    const Function *Caller = Work.pop_back_val();
    for (const BasicBlock &BB : Caller->blocks())
      for (const Instruction &I : BB.instructions())
        if (const auto *Targets = I.getModifier<CallTargetData>())
          for (const std::string &Name : Targets->Callees)
            if (const Function *Callee = findCallee(M, Name); Callee && Callees.insert(Callee))
              Work.push_back(Callee);
  }
  return Callees;
}

} // namespace stinkytofu

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

AnalysisKey CallGraphAnalysis::Key;

CallGraph::CallGraph(const Module &M) {
  for (const Function &F : M.functions()) {
    SmallVector<const Function *, 2> &Out = Direct[&F];
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions())
        if (const auto *Targets = I.getModifier<CallTargetData>())
          for (const std::string &Name : Targets->Callees)
            if (const Function *Callee = findCallee(M, Name);
                Callee && !is_contained(Out, Callee))
              Out.push_back(Callee);
  }
}

ArrayRef<const Function *> CallGraph::callees(const Function &F) const {
  auto It = Direct.find(&F);
  return It == Direct.end() ? ArrayRef<const Function *>() : ArrayRef(It->second);
}

SetVector<const Function *> CallGraph::transitiveCallees(const Function &F) const {
  SetVector<const Function *> Callees;
  SmallVector<const Function *, 8> Work{&F};
  while (!Work.empty())
    for (const Function *Callee : callees(*Work.pop_back_val()))
      if (Callees.insert(Callee))
        Work.push_back(Callee);
  return Callees;
}

CallGraph CallGraphAnalysis::run(Module &M, AnalysisManager &) { return CallGraph(M); }

} // namespace stinkytofu

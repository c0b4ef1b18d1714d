//===- ModuleStats.cpp - Per-function control-flow counts -----------------===//
#include "stinkytofu/analysis/ModuleStats.h"
#include "stinkytofu/analysis/Reachability.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <cstring>

using namespace llvm;

namespace stinkytofu {

FunctionStats &FunctionStats::operator+=(const FunctionStats &O) {
  Blocks += O.Blocks;
  Edges += O.Edges;
  LongBranches += O.LongBranches;
  LongBranchesResolved += O.LongBranchesResolved;
  Calls += O.Calls;
  CallsWithKnownTargets += O.CallsWithKnownTargets;
  UnreachableBlocks += O.UnreachableBlocks;
  return *this;
}

FunctionStats ModuleStats::total() const {
  FunctionStats T;
  T.Function = "<total>";
  for (const FunctionStats &F : Functions)
    T += F;
  return T;
}

FunctionStats computeFunctionStats(const Function &F) {
  FunctionStats S;
  S.Function = F.name().str();
  for (const BasicBlock &BB : F.blocks()) {
    ++S.Blocks;
    S.Edges += BB.successors().size();
    for (const Instruction &I : BB.instructions()) {
      if (isComputedBranch(I) && !isReturn(I)) {
        ++S.LongBranches;
        if (I.getModifier<LabelData>())
          ++S.LongBranchesResolved;
      }
      if (isCall(I)) {
        ++S.Calls;
        if (!getCallTargets(I).empty())
          ++S.CallsWithKnownTargets;
      }
    }
  }
  S.UnreachableBlocks = unreachableBlocks(F).size();
  return S;
}

ModuleStats computeModuleStats(const Module &M) {
  ModuleStats S;
  for (const Function *F : M.functionsInPrintOrder())
    S.Functions.push_back(computeFunctionStats(*F));
  return S;
}

void printModuleStats(const ModuleStats &S, raw_ostream &OS) {
  std::vector<FunctionStats> Rows = S.Functions;
  Rows.push_back(S.total());
  size_t NameWidth = std::string("function").size();
  for (const FunctionStats &R : Rows)
    NameWidth = std::max(NameWidth, R.Function.size());
  static const char *const Columns[] = {"blocks", "edges", "long-branches", "resolved",
                                        "calls", "known-callee", "unreachable"};
  OS << left_justify("function", NameWidth);
  for (const char *C : Columns)
    OS << "  " << C;
  OS << "\n";
  for (const FunctionStats &R : Rows) {
    const unsigned Values[] = {R.Blocks, R.Edges, R.LongBranches, R.LongBranchesResolved,
                               R.Calls,  R.CallsWithKnownTargets, R.UnreachableBlocks};
    OS << left_justify(R.Function, NameWidth);
    for (size_t C = 0; C < std::size(Columns); ++C)
      OS << "  " << right_justify(std::to_string(Values[C]), std::strlen(Columns[C]));
    OS << "\n";
  }
}

} // namespace stinkytofu

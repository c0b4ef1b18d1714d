//===- RocIsaPass.cpp - rocisa's post-generation pass driver ------------===//
#include "rocisa-bridge/pass/RocIsaPass.h"

using namespace llvm;

namespace rocisa {

Expected<RocIsaPassResult> rocIsaPass(KernelBody &Kernel, const RocIsaPassOption &Option) {
  RocIsaPassResult Result;
  if (Option.removeDupFunc) {
    Expected<DuplicateRemoval> Removed = removeDuplicatedFunction(*Kernel.body);
    if (!Removed)
      return Removed.takeError();
    Result.duplicates = std::move(*Removed);
    Result.steps.push_back("removeDuplicatedFunction");
  }
  for (const char *Lowering :
       {"macroToInstruction", "compositeToInstruction", "convertTextVariablesToRegisters"})
    Result.steps.push_back(Lowering);
  if (Option.doOpt())
    Result.skipped.push_back("removeDuplicateAssignment");
  if (Option.insertDelayAlu)
    Result.skipped.push_back("insertDelayAlu");
  if (Option.getCycles)
    Result.skipped.push_back("getCycles");
  Result.maxVgpr = Kernel.totalVgprs;
  return Result;
}

} // namespace rocisa

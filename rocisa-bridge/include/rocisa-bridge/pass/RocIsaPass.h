//===- RocIsaPass.h - rocisa's post-generation pass driver ----------*- C++ -*-===//
//
// rocIsaPass runs, in rocisa's order, over a generated kernel:
//   1. removeDuplicatedFunction, if removeDupFunc (first: it needs the
//      modules, labels and calls as the generator built them);
//   2. macroToInstruction, compositeToInstruction,
//      convertTextVariablesToRegisters: always; in the bridge's object model
//      they have nothing to do (every item prints itself, no composite or
//      macro instruction waits to be expanded) and are recorded as run;
//   3. removeDuplicateAssignment, if doOpt() (= removeDupAssign);
//   4. insertDelayAlu, if set;
//   5. getCycles, if set.
// Steps 3-5 are rocisa's own scheduling heuristics; the bridge does not
// implement them (StinkyTofu's pipelines do that work on the converted
// module) and lists them in RocIsaPassResult::skipped.
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_PASS_ROCISAPASS_H
#define ROCISA_BRIDGE_PASS_ROCISAPASS_H

#include "rocisa-bridge/code/KernelBody.h"
#include "rocisa-bridge/pass/RemoveDuplicatedFunction.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace rocisa {

struct RocIsaPassOption {
  bool insertDelayAlu = false;
  bool removeDupFunc = true;
  bool removeDupAssign = true;
  bool getCycles = true;
  int numWaves = 0;
  bool doOpt() const { return removeDupAssign; }
};

struct RocIsaPassResult {
  int cycles = -1;
  /// The highest VGPR used + 1; without removeDuplicateAssignment, the
  /// kernel's VGPR total.
  int maxVgpr = -1;
  /// The steps run, in order.
  std::vector<std::string> steps;
  /// Steps the options asked for that the bridge does not implement.
  std::vector<std::string> skipped;
  DuplicateRemoval duplicates;
};

llvm::Expected<RocIsaPassResult> rocIsaPass(KernelBody &Kernel, const RocIsaPassOption &Option);

} // namespace rocisa

#endif

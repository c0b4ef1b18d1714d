//===- RemoveDuplicatedFunction.h - One body per activation group ---*- C++ -*-===//
//
// TensileLite emits an activation-function wrapper module per global-write
// path, named by getActFuncModuleName (vector width and register windows).
// Wrappers of the same name hold the same code under fresh labels
// (`label_Activation_Relu_VW1`, `..._VW1_1`). This pass keeps the first
// wrapper of each name, moves it to the end of the body (after it an
// `s_endpgm`), deletes the others, and sends every reference to a deleted
// body to the kept one:
//
//   - groups are handled in the order their first wrapper appears (rocisa
//     walks a hash map, whose order depends on the standard library);
//   - each deleted wrapper's callable bodies map to the kept wrapper's by
//     position, and only that rename map is applied, to instruction
//     operands (the `s_add_i32 sX, label, 4` address computations), branch
//     labels and SSwapPCB64.calleeFuncs. A label of another group, such as
//     a VW4 callee while the VW1 group is merged, is never touched (rocisa
//     rewrites any `label_Activation_*` name by its underscore count, so a
//     VW4 call site would name the VW1 body);
//   - the tree is edited from the root: no parent pointers.
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_PASS_REMOVEDUPLICATEDFUNCTION_H
#define ROCISA_BRIDGE_PASS_REMOVEDUPLICATEDFUNCTION_H

#include "rocisa-bridge/code/Module.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace rocisa {

/// `ActFunc_VW<gwvw>_Sgpr<sgpr>_Tmp<tmpVgpr>_<tmpSgpr>`.
std::string getActFuncModuleName(int Gwvw, int Sgpr, int TmpVgpr, int TmpSgpr);
/// `InsertActFuncCallAddrCalc`: the module of a call site's address
/// computation.
std::string getActFuncBranchModuleName();

struct DuplicateRemoval {
  /// Wrapper names that had duplicates, in order of first appearance.
  std::vector<std::string> MergedGroups;
  /// Deleted body label -> kept body label, in the order applied.
  std::vector<std::pair<std::string, std::string>> Renames;
  /// Wrappers deleted.
  unsigned RemovedWrappers = 0;
};

/// Merges duplicate activation wrappers in \p Body. A deleted wrapper whose
/// callable bodies do not match the kept one's (count, or a body that does
/// not start with its label) is an error, and \p Body is left unchanged.
llvm::Expected<DuplicateRemoval> removeDuplicatedFunction(Module &Body);

} // namespace rocisa

#endif

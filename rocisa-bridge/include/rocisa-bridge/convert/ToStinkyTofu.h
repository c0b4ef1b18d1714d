//===- ToStinkyTofu.h - rocisa modules into StinkyTofu IR -----------*- C++ -*-===//
//
// toStinkyTofuModule turns a rocisa tree into a StinkyTofu module whose
// assembly is the tree's text byte for byte:
//
//   - the tree is printed and LLVM MC assembles every statement for the
//     target; a statement MC rejects is an error that names the rocisa
//     object (its class and module path) and the line;
//   - each module marked isCallable becomes a callable function named
//     callableName (or the module's name), from its first label to the next
//     callable or the end of the code (where CallTargetRecoveryPass splits
//     the text path's module too); two callables of one name are an error;
//   - metadata from the objects, never from the text:
//       SSwapPCB64            -> CallTargetData{calleeFuncs} (must be a call)
//       SSetPCB64 with a hint -> LabelData{longBranchLabel}
//       SAddPCI64             -> LabelData{label}, `label_X-.-12` reduced
//       other branches        -> LabelData{labelName} when LabelShortBranches
//                                (their label operand already names the
//                                target; the text path has no LabelData there)
//   - every function's CFG is built.
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_CONVERT_TOSTINKYTOFU_H
#define ROCISA_BRIDGE_CONVERT_TOSTINKYTOFU_H

#include "rocisa-bridge/code/KernelBody.h"
#include "rocisa-bridge/code/Module.h"
#include "rocisa-bridge/convert/StinkyModule.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>

namespace rocisa {

struct ConversionOptions {
  /// Text in front of the module's (sections, `.amdgcn_target`, kernel
  /// symbol, descriptor): a KernelBody's signature.
  std::string Prologue;
  /// Text after it (the `.amdgpu_metadata` block, if kept apart).
  std::string Epilogue;
  /// rocisa's converter stamps LabelData on every short branch as well.
  bool LabelShortBranches = false;
};

/// The message of the duplicate-callable error.
inline constexpr const char *DuplicateCallableMessage =
    "duplicate activation functions must be merged by removeDuplicatedFunction before "
    "conversion";

llvm::Expected<std::unique_ptr<StinkyModule>>
toStinkyTofuModule(const Module &M, llvm::StringRef Arch, llvm::StringRef Name = "",
                   const ConversionOptions &Options = {});

/// The kernel's signature is the prologue.
llvm::Expected<std::unique_ptr<StinkyModule>>
toStinkyTofuModule(const KernelBody &K, llvm::StringRef Arch, ConversionOptions Options = {});

} // namespace rocisa

#endif

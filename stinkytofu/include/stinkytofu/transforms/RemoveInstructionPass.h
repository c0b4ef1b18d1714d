//===- RemoveInstructionPass.h - Passes that delete instructions -*- C++ -*-===//
//
// The passes that delete every instruction of a kind, in the pass scope:
//   RemoveInstructionPass=<m1>,<m2>,...  the named mnemonics (an encoding
//       suffix such as _e32/_e64 is matched too); a mnemonic the target does
//       not have is an error naming it, and so is an empty list;
//   StinkyRemoveNopPass[=vNopOnly]       s_nop and v_nop (v_nop only);
//   RemoveDelayAluPass                   s_delay_alu.
// Roles (nop, delay) come from the hardware model's InstRole records.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REMOVEINSTRUCTIONPASS_H
#define STINKYTOFU_TRANSFORMS_REMOVEINSTRUCTIONPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createRemoveInstructionPass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>> createStinkyRemoveNopPass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>> createRemoveDelayAluPass(const PassArguments &Args);

} // namespace stinkytofu

#endif

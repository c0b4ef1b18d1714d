//===- InstructionClasses.h - Instructions by rocisa class name ----*- C++ -*-===//
#ifndef ROCISA_BRIDGE_CODE_INSTRUCTIONCLASSES_H
#define ROCISA_BRIDGE_CODE_INSTRUCTIONCLASSES_H

#include "rocisa-bridge/code/Instruction.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace rocisa {

struct InstructionClass {
  llvm::StringRef Name;
  llvm::StringRef Mnemonic;
  unsigned NumDsts;
};

/// Every class of InstructionClasses.def, in its order.
llvm::ArrayRef<InstructionClass> instructionClasses();
const InstructionClass *findInstructionClass(llvm::StringRef Name);

/// An instruction of class \p Name: the first NumDsts of \p Operands are its
/// destinations, the rest its sources. An unknown class, or fewer operands
/// than destinations, is an error.
llvm::Expected<std::shared_ptr<CommonInstruction>>
makeInstruction(llvm::StringRef Name, std::vector<InstructionInput> Operands,
                std::string Comment = "", std::string Modifiers = "");

/// rocisa's SWaitCnt: `s_waitcnt` with the counters that are >= 0
/// (`vmcnt(0) lgkmcnt(2)`); all negative prints `s_waitcnt 0`.
std::shared_ptr<CommonInstruction> makeSWaitCnt(int Lgkmcnt, int Vmcnt, std::string Comment = "");

} // namespace rocisa

#endif

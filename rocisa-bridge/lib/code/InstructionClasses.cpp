//===- InstructionClasses.cpp - Instructions by rocisa class name -------===//
#include "rocisa-bridge/code/InstructionClasses.h"

using namespace llvm;

namespace rocisa {

namespace {
const InstructionClass Classes[] = {
#define ROCISA_INSTRUCTION(Class, Mnemonic, NumDsts) {#Class, Mnemonic, NumDsts},
#include "rocisa-bridge/code/InstructionClasses.def"
};
} // namespace

ArrayRef<InstructionClass> instructionClasses() { return Classes; }

const InstructionClass *findInstructionClass(StringRef Name) {
  for (const InstructionClass &C : Classes)
    if (C.Name == Name)
      return &C;
  return nullptr;
}

Expected<std::shared_ptr<CommonInstruction>>
makeInstruction(StringRef Name, std::vector<InstructionInput> Operands, std::string Comment,
                std::string Modifiers) {
  const InstructionClass *C = findInstructionClass(Name);
  if (!C)
    return createStringError(inconvertibleErrorCode(),
                             "unknown rocisa instruction class '" + Name + "'");
  if (Operands.size() < C->NumDsts)
    return createStringError(inconvertibleErrorCode(),
                             Name + " takes " + Twine(C->NumDsts) + " destination(s), got " +
                                 Twine(Operands.size()) + " operand(s)");
  std::vector<InstructionInput> Dsts(Operands.begin(), Operands.begin() + C->NumDsts);
  std::vector<InstructionInput> Srcs(Operands.begin() + C->NumDsts, Operands.end());
  return std::make_shared<CommonInstruction>(C->Name.str(), C->Mnemonic.str(), std::move(Dsts),
                                             std::move(Srcs), std::move(Comment),
                                             std::move(Modifiers));
}

std::shared_ptr<CommonInstruction> makeSWaitCnt(int Lgkmcnt, int Vmcnt, std::string Comment) {
  std::string Counters;
  if (Vmcnt >= 0)
    Counters = "vmcnt(" + std::to_string(Vmcnt) + ")";
  if (Lgkmcnt >= 0)
    Counters += (Counters.empty() ? "" : " ") + std::string("lgkmcnt(") +
                std::to_string(Lgkmcnt) + ")";
  if (Counters.empty())
    Counters = "0";
  return std::make_shared<CommonInstruction>("SWaitCnt", "s_waitcnt",
                                             std::vector<InstructionInput>{},
                                             std::vector<InstructionInput>{Counters},
                                             std::move(Comment));
}

} // namespace rocisa

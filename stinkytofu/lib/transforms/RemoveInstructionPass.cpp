//===- RemoveInstructionPass.cpp - Passes that delete instructions --------===//
#include "stinkytofu/transforms/RemoveInstructionPass.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace stinkytofu {

Expected<std::unique_ptr<Pass>> createRemoveInstructionPass(const PassArguments &Args) {
  auto Names = std::make_shared<StringSet<>>();
  for (const auto &[Key, Value] : Args) {
    if (!Value.empty())
      return createStringError(inconvertibleErrorCode(),
                               "expects mnemonics, got '" + Key + "=" + Value + "'");
    Names->insert(StringRef(Key).lower());
  }
  if (Names->empty())
    return createStringError(inconvertibleErrorCode(),
                             "expects a list of mnemonics (--RemoveInstructionPass=s_nop,v_nop)");
  auto Check = [Names](Module &M) -> Error {
    for (const auto &N : *Names)
      if (!targetHasMnemonic(M, N.getKey()))
        return moduleError(M, "RemoveInstructionPass: " + M.target().processor() +
                                  " has no instruction '" + N.getKey() + "'");
    return Error::success();
  };
  auto Pick = [Names](const Instruction &I) {
    return Names->contains(I.mnemonic()) || Names->contains(baseMnemonic(I.mnemonic()));
  };
  return createErasePass("RemoveInstructionPass", Pick, Check);
}

Expected<std::unique_ptr<Pass>> createStinkyRemoveNopPass(const PassArguments &Args) {
  bool VNopOnly = false;
  if (Error E = parseFlagArguments(Args, {{"vNopOnly", &VNopOnly}}))
    return std::move(E);
  return createErasePass("StinkyRemoveNopPass", [VNopOnly](const Instruction &I) {
    InstRole R = HardwareModel::roleOf(I.mnemonic());
    return R == InstRole::VectorNop || (!VNopOnly && R == InstRole::ScalarNop);
  });
}

Expected<std::unique_ptr<Pass>> createRemoveDelayAluPass(const PassArguments &Args) {
  if (!Args.empty())
    return createStringError(inconvertibleErrorCode(), "takes no arguments");
  return createErasePass("RemoveDelayAluPass", [](const Instruction &I) {
    return HardwareModel::roleOf(I.mnemonic()) == InstRole::DelayAlu;
  });
}

} // namespace stinkytofu

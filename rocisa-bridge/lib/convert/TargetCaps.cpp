//===- TargetCaps.cpp - What a target can assemble, asked of LLVM MC ----===//
#include "rocisa-bridge/convert/TargetCaps.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdio>

using namespace llvm;

namespace rocisa {

/// Whether MC on \p Arch accepts what \p Make builds in a scratch module.
static Expected<bool>
accepts(StringRef Arch,
        function_ref<Expected<stinkytofu::Instruction>(stinkytofu::InstBuilder &)> Make) {
  Expected<std::shared_ptr<const stinkytofu::TargetInfo>> TI = stinkytofu::TargetInfo::get(Arch);
  if (!TI)
    return TI.takeError();
  stinkytofu::Module Scratch("caps", *TI);
  stinkytofu::InstBuilder Builder(Scratch);
  Expected<stinkytofu::Instruction> I = Make(Builder);
  if (!I) {
    consumeError(I.takeError());
    return false;
  }
  return true;
}

Expected<bool> targetAssembles(StringRef Arch, StringRef Statement) {
  // The statement is the caller's (rocisa asks whether its text assembles).
  return accepts(Arch, [&](stinkytofu::InstBuilder &B) { return B.parse(Statement); });
}

Expected<bool> hasAddPCI64(StringRef Arch) {
  return accepts(Arch, [](stinkytofu::InstBuilder &B) {
    return B.build("s_add_pc_i64", {stinkytofu::BuildOperand::imm(0)});
  });
}

std::string archName(int Major, int Minor, int Stepping) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), "gfx%d%d%x", Major, Minor, unsigned(Stepping));
  return Buffer;
}

} // namespace rocisa

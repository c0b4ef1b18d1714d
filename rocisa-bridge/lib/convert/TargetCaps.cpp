//===- TargetCaps.cpp - What a target can assemble, asked of LLVM MC ----===//
#include "rocisa-bridge/convert/TargetCaps.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstBuilder.h"
#include <cstdio>

using namespace llvm;

namespace rocisa {

Expected<bool> targetAssembles(StringRef Arch, StringRef Statement) {
  Expected<std::shared_ptr<const stinkytofu::TargetInfo>> TI = stinkytofu::TargetInfo::get(Arch);
  if (!TI)
    return TI.takeError();
  stinkytofu::Module Scratch("caps", *TI);
  stinkytofu::InstBuilder Builder(Scratch);
  Expected<stinkytofu::Instruction> I = Builder.parse(Statement);
  if (!I) {
    consumeError(I.takeError());
    return false;
  }
  return true;
}

Expected<bool> hasAddPCI64(StringRef Arch) { return targetAssembles(Arch, "s_add_pc_i64 0"); }

std::string archName(int Major, int Minor, int Stepping) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), "gfx%d%d%x", Major, Minor, unsigned(Stepping));
  return Buffer;
}

} // namespace rocisa

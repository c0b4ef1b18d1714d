//===- InstructionPrefetch.cpp - What the wave finds in its code cache ----===//
#include "stinkytofu/hw/InstructionPrefetch.h"

#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/TargetParser/TargetParser.h"

using namespace llvm;

namespace stinkytofu {

std::optional<uint64_t> maxInstPrefLines(const TargetInfo &T) {
  unsigned Major = AMDGPU::getIsaVersion(T.processor()).Major;
  if (Major < 11)
    return std::nullopt;
  unsigned Width = Major == 11 ? amdhsa::COMPUTE_PGM_RSRC3_GFX11_INST_PREF_SIZE_WIDTH
                               : amdhsa::COMPUTE_PGM_RSRC3_GFX12_PLUS_INST_PREF_SIZE_WIDTH;
  return (uint64_t(1) << Width) - 1;
}

} // namespace stinkytofu

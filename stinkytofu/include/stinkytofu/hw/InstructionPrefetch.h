//===- InstructionPrefetch.h - What the wave finds in its code cache -*- C++ -*-===//
//
// Facts about instruction fetch that the code-size passes share, from LLVM's
// AMDHSAKernelDescriptor.h: at launch the CP prefetches the kernel's first
// `.amdhsa_inst_pref_size` instruction cache lines (128 bytes each); the
// field is 6 bits wide on gfx11 and 8 bits from gfx12, and absent before.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_INSTRUCTIONPREFETCH_H
#define STINKYTOFU_HW_INSTRUCTIONPREFETCH_H

#include <cstdint>
#include <optional>

namespace stinkytofu {

class TargetInfo;

/// The instruction cache line the prefetch sizes count in.
constexpr uint64_t InstCacheLineBytes = 128;

/// The most lines `.amdhsa_inst_pref_size` states on \p T; none before
/// gfx11, which lacks the field.
std::optional<uint64_t> maxInstPrefLines(const TargetInfo &T);

} // namespace stinkytofu

#endif

//===- DifferentialSupport.h - What the differential targets need -*- C++ -*-===//
//
// The differential targets check one of the reader's scanners against MC's
// lexer or parser; they link the layers up to mc only (FuzzSupport.h, which
// includes this, is for the targets that read and transform whole modules).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TESTS_FUZZ_DIFFERENTIALSUPPORT_H
#define STINKYTOFU_TESTS_FUZZ_DIFFERENTIALSUPPORT_H

#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/mc/InputLimits.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

namespace stinkytofu::fuzz {

/// A broken invariant aborts, which libFuzzer reports as a crash and saves
/// the input that broke it.
inline void check(bool Ok, const char *What) {
  if (!Ok) {
    std::fprintf(stderr, "invariant broken: %s\n", What);
    std::abort();
  }
}

/// The input of a differential target as text; nullopt when it holds a NUL,
/// which ends MC's buffer early and which the reader refuses.
inline std::optional<llvm::StringRef> textInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  if (Input.contains('\0'))
    return std::nullopt;
  return Input;
}

/// The target the differential targets compare on: every AMDGPU target
/// lexes and evaluates alike.
inline const std::shared_ptr<const TargetInfo> &differentialTarget() {
  static const std::shared_ptr<const TargetInfo> TI = llvm::cantFail(TargetInfo::get("gfx942"));
  return TI;
}

/// The reading limits for fuzzing: the defaults, but with a smaller bound on
/// what `.rept` and macros expand to (readerOptions in FuzzSupport.h says
/// why).
inline InputLimits limits() {
  InputLimits Limits;
  Limits.MaxExpandedStatements = 5'000;
  return Limits;
}

} // namespace stinkytofu::fuzz

#endif

//===- HexString.h - numbers as 0x-prefixed lower-case hex ------*- C++ -*-===//
#ifndef STINKYTOFU_SUPPORT_HEXSTRING_H
#define STINKYTOFU_SUPPORT_HEXSTRING_H

#include "llvm/ADT/StringExtras.h"
#include <cstdint>
#include <string>

namespace stinkytofu {

/// \p V as the error messages about binaries write offsets and addresses:
/// `0x1f0`.
inline std::string hexString(uint64_t V) {
  return "0x" + llvm::utohexstr(V, /*LowerCase=*/true);
}

} // namespace stinkytofu

#endif

//===- JsonWriting.h - Small helpers for the streamed JSON outputs -*- C++ -*-===//
//
// The JSON outputs (Perfetto, speedscope, memory) are written as they are
// decoded, not built as a document: only a string escaper is needed.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_JSONWRITING_H
#define ASM_INSTRUMENT_TRACE_JSONWRITING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu::trace {

/// Writes \p S as a quoted JSON string.
void writeJsonString(llvm::raw_ostream &OS, llvm::StringRef S);

/// Writes a 64-bit value as a quoted "0x..." string (JSON numbers lose
/// precision above 2^53).
void writeJsonHex(llvm::raw_ostream &OS, uint64_t V);

} // namespace stinkytofu::trace

#endif

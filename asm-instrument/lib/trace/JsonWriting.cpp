//===- JsonWriting.cpp - Small helpers for the streamed JSON outputs ------===//
#include "asm-instrument/trace/JsonWriting.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace stinkytofu::trace {

void writeJsonString(raw_ostream &OS, StringRef S) {
  OS << '"';
  for (unsigned char C : S) {
    switch (C) {
    case '"':
      OS << "\\\"";
      break;
    case '\\':
      OS << "\\\\";
      break;
    case '\n':
      OS << "\\n";
      break;
    case '\t':
      OS << "\\t";
      break;
    default:
      if (C < 0x20)
        OS << format("\\u%04x", C);
      else
        OS << C;
    }
  }
  OS << '"';
}

void writeJsonHex(raw_ostream &OS, uint64_t V) { OS << "\"0x" << format_hex_no_prefix(V, 1) << '"'; }

} // namespace stinkytofu::trace

//===- Diagnostics.h - What went wrong in a trace, counted ------*- C++ -*-===//
//
// Decoding goes on past bad records; each kind of trouble is counted and
// reported once at the end ("warning: 3 orphan exit markers ...").
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_DIAGNOSTICS_H
#define ASM_INSTRUMENT_TRACE_DIAGNOSTICS_H

#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace stinkytofu::trace {

struct Diagnostics {
  uint64_t Records = 0;          ///< Shaderdata rows read.
  uint64_t TrapRecords = 0;      ///< Dropped: written by the trap handler.
  uint64_t OrphanExits = 0;      ///< An exit on an empty stack.
  uint64_t EmptyTransitions = 0; ///< Exit+enter on an empty stack.
  uint64_t UnknownIds = 0;       ///< Ids not in the funcmap.
  std::set<uint32_t> UnknownIdValues; ///< The first few of them.
  uint64_t OpenScopesAtEnd = 0;  ///< Scopes still open when their wave ended.
  uint64_t RecordsAfterWaveEnd = 0;
  uint64_t RecordsWithoutWave = 0; ///< Waves whose slot has no occupancy launch.
  uint64_t LostRecords = 0;      ///< Rows missing (records_count) or blocks cut short.
  uint64_t RowsWithoutInstruction = 0; ///< Wave rows whose line code.json lacks.
  std::vector<std::string> Warnings; ///< Other one-off warnings.

  void noteUnknownId(uint32_t Id);
  /// One "warning: ..." line per nonzero count.
  void print(llvm::raw_ostream &OS, llvm::StringRef Tool) const;
};

} // namespace stinkytofu::trace

#endif

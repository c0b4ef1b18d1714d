//===- Hotspots.h - Cycles per instruction, block, loop, function -*- C++ -*-===//
//
// `sqtt-trace hotspots`: an InstructionProfile summed over the source's
// structure. Without a source every profiled instruction is a row of its
// own; with one (SourceMap, placed), rows carry their `.s` line and are also
// summed per basic block, natural loop (LoopInfo; a loop holds its nested
// loops' blocks) and function.
//
// A group's executions are those of its first instruction: a block's
// entries, a loop's iterations (its header's entries), a function's calls.
// An executed `s_nop` in an alignment gap counts to the block it aligns.
// Any other executed address with no instruction of the source there, or one
// of a different mnemonic, is unmapped.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_HOTSPOTS_HOTSPOTS_H
#define ASM_INSTRUMENT_HOTSPOTS_HOTSPOTS_H

#include "asm-instrument/hotspots/SourceMap.h"
#include "asm-instrument/trace/InstructionProfile.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace stinkytofu::hotspots {

struct InstructionRow {
  const trace::ProfiledInstruction *Profile = nullptr;
  const Instruction *Inst = nullptr; ///< Null when unmapped or without source.
  /// An `s_nop` of the alignment padding before this block.
  const BasicBlock *PaddingOf = nullptr;
  /// The source line the row maps to (the block's for padding); 0: none.
  unsigned line() const;
};

/// A block, loop or function.
struct GroupRow {
  enum Kind { BlockRow, LoopRow, FunctionRow } What = BlockRow;
  std::string Name;
  const Function *Parent = nullptr;
  const BasicBlock *First = nullptr; ///< The block, loop header or entry.
  unsigned Line = 0;  ///< Source line of its label.
  unsigned Depth = 0; ///< Loops: nesting depth from 1.
  uint64_t Executions = 0;
  trace::InstructionCounts Counts;
  trace::SampleCounts Samples;
};

struct Hotspots {
  trace::InstructionCounts Total;
  trace::SampleCounts TotalSamples;
  /// A PC-sampling capture: no cycles, only samples; rows are ranked and
  /// shared by samples (issued + stalled).
  bool BySamples = false;
  /// What rows are ranked by: cycles, or samples when BySamples.
  uint64_t weight(const trace::InstructionCounts &C, const trace::SampleCounts &S) const {
    return BySamples ? S.Issued + S.Stalled : C.Cycles;
  }
  std::vector<InstructionRow> Instructions; ///< Largest cycles first.
  std::vector<GroupRow> Functions, Loops, Blocks;
  llvm::DenseMap<const Instruction *, const trace::ProfiledInstruction *> ProfileOf;
  /// Executed alignment padding, summed per block it aligns.
  llvm::DenseMap<const BasicBlock *, std::pair<trace::InstructionCounts, trace::SampleCounts>>
      PaddingOf;
  /// Executed instructions the source does not account for.
  std::vector<const trace::ProfiledInstruction *> Unmapped;
  bool HasSource = false;
};

/// The source line of \p BB's label (of its first instruction without one).
unsigned lineOfBlock(const BasicBlock &BB);

/// Sums \p P; \p Map, when given, must have been placed in \p P.
Hotspots computeHotspots(const trace::InstructionProfile &P, SourceMap *Map);

struct PrintOptions {
  unsigned Top = 20; ///< Rows per table; 0: all.
  bool Annotate = false;
};

void printHotspots(const Hotspots &H, const trace::InstructionProfile &P, const SourceMap *Map,
                   const PrintOptions &Opts, llvm::raw_ostream &OS);
void printHotspotsJson(const Hotspots &H, const trace::InstructionProfile &P,
                       const SourceMap *Map, llvm::raw_ostream &OS);
/// The source of every placed function, each line with its cycles, share,
/// stall cycles and a bar of its stall cycles (like `perf annotate`).
void printAnnotatedSource(const Hotspots &H, const SourceMap &Map, llvm::raw_ostream &OS);

} // namespace stinkytofu::hotspots

#endif

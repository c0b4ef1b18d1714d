//===- DependenceDAG.h - Which instructions of a region must keep their order -*- C++ -*-===//
//
// The dependence graph of a scheduling region: the instructions of a block
// between two directives (a directive may change what the text after it
// means, so nothing moves across one; asm-ir.md). An edge From -> To says
// To must stay after From:
//
//   - Data: To reads a register unit From wrote last (a true dependence);
//     its latency is From's latency (BlockCycleModel: MC's scheduling model,
//     else the hardware model);
//   - Anti: To writes a unit From read, after From's last writer;
//   - Output: To writes a unit From wrote last;
//   - Memory: both access an address space, one writes or is atomic, and
//     InstructionEffects cannot prove them disjoint (memoryConflict);
//   - Order: one of them is a fence (InstructionEffects.h).
//
// Edges are reduced only where cheap: each pair has at most one edge (the
// strongest kind, the largest latency), and an instruction depends on the
// last fence before it rather than on everything before that fence.
//
// DependenceDAGAnalysis builds the graph of every region of a function,
// cached by the AnalysisManager like the other analyses.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_DEPENDENCEDAG_H
#define STINKYTOFU_ANALYSIS_DEPENDENCEDAG_H

#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/analysis/InstructionEffects.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <vector>

namespace stinkytofu {

class BlockCycleModel;

enum class DepKind : uint8_t { Data, Anti, Output, Memory, Order };
llvm::StringRef depKindName(DepKind K);

struct DepEdge {
  unsigned From;
  unsigned To;
  DepKind Kind;
  /// Cycles To must issue after From (a Data edge: From's latency; else 1).
  unsigned Latency;
};

/// The instructions of one block between two directives, in block order.
struct ScheduleRegion {
  BasicBlock *Block = nullptr;
  std::vector<Instruction *> Insts;
};
/// The regions of \p F, in layout order; regions of one instruction
/// included.
std::vector<ScheduleRegion> scheduleRegions(Function &F);

class DependenceDAG {
public:
  /// The graph of \p Insts (one region, in program order). \p Timing gives
  /// Data latencies; without it every edge has latency 1. \p UnitSlots, when
  /// given, is a table of an entry per register unit, each ~0u, which the
  /// graph uses while built and leaves so: the graphs of a function share
  /// one instead of each filling its own (a call-dense kernel has a region
  /// per call).
  DependenceDAG(llvm::ArrayRef<Instruction *> Insts, const EffectModel &EM,
                const BlockCycleModel *Timing = nullptr,
                std::vector<unsigned> *UnitSlots = nullptr);

  unsigned size() const { return Insts.size(); }
  Instruction &instruction(unsigned N) const { return *Insts[N]; }
  llvm::ArrayRef<Instruction *> instructions() const { return Insts; }
  const InstructionEffects &effects(unsigned N) const { return Effects[N]; }
  llvm::ArrayRef<InstructionEffects> effects() const { return Effects; }
  llvm::ArrayRef<DepEdge> edges() const { return Edges; }
  /// Indices into edges() of the edges into / out of node \p N.
  llvm::ArrayRef<unsigned> preds(unsigned N) const { return Preds[N]; }
  llvm::ArrayRef<unsigned> succs(unsigned N) const { return Succs[N]; }
  /// The edge From -> To, or null (direct edges only).
  const DepEdge *edge(unsigned From, unsigned To) const;
  /// The longest latency path from \p N to the end of the region, \p N's
  /// own latency included: the priority of critical-path-first scheduling.
  unsigned heightOf(unsigned N) const { return Heights[N]; }
  /// Whether \p Order (a permutation of 0..size()-1) keeps every edge.
  bool isTopologicalOrder(llvm::ArrayRef<unsigned> Order) const;

private:
  void addEdge(unsigned From, unsigned To, DepKind Kind, unsigned Latency);

  std::vector<Instruction *> Insts;
  std::vector<InstructionEffects> Effects;
  std::vector<unsigned> Latencies;
  std::vector<DepEdge> Edges;
  /// Most nodes have a few edges each way: kept inline (growing a vector
  /// per node was half of adding the edges).
  std::vector<llvm::SmallVector<unsigned, 4>> Preds, Succs;
  std::vector<unsigned> Heights;
  /// While the graph is built: per node, the last node an edge from it
  /// went to and that edge's index (addEdge's check for a repeated pair).
  std::vector<std::pair<unsigned, unsigned>> EdgeFrom;
};

/// The graphs of every region of a function.
class FunctionDependences {
public:
  FunctionDependences(Function &F);
  FunctionDependences(FunctionDependences &&);
  ~FunctionDependences();

  llvm::ArrayRef<ScheduleRegion> regions() const { return Regions; }
  const DependenceDAG &dag(unsigned Region) const { return *DAGs[Region]; }
  const EffectModel &effects() const { return *EM; }
  /// The model the Data latencies come from.
  const BlockCycleModel &timing() const { return *Timing; }

private:
  std::unique_ptr<EffectModel> EM;
  std::unique_ptr<BlockCycleModel> Timing;
  std::vector<ScheduleRegion> Regions;
  std::vector<std::unique_ptr<DependenceDAG>> DAGs;
};

/// The dependence graphs of a function (which must belong to a module).
struct DependenceDAGAnalysis {
  static AnalysisKey Key;
  using Result = FunctionDependences;
  Result run(Function &F, AnalysisManager &AM);
};

} // namespace stinkytofu

#endif

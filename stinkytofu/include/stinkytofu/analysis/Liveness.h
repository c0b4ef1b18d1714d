//===- Liveness.h - Register liveness at instruction granularity -*- C++ -*-===//
//
// Which register units may still be read before being written, at every
// point of a function. Live-in and live-out of each block come from a
// backward dataflow over the CFG edges (Dataflow.h, LiveUnitsDataflow.h; run
// the CFG builder first); the sets around the instructions of a block are
// computed on the first request about one of them by walking the block
// backward from its live-out, and kept.
//
// Per instruction: live-before = (live-after - defs) | uses, with Uses and
// Defs from facts() (a def kills every unit of its register). Special cases:
// - An opaque instruction reads and writes everything: everything is live
//   before it.
// - A call (IF_Call) also runs its callee: see CallEffects.h for what a
//   callee reads, may write and surely writes, with or without
//   CallTargetData.
// - A block without successors: empty live-out when it ends in s_endpgm*;
//   everything live-out otherwise (a return from a callable function, whose
//   caller may read anything, an s_setpc_b64 to an unknown target, or a
//   block whose edges are missing). LivenessOptions can narrow what is live
//   after a return.
// - An edge to a block of another function: everything live there.
//
// A VALU write under a partial EXEC leaves the inactive lanes untouched but
// still counts as a full def here, as in LLVM's register liveness: VGPR
// liveness is per register, not per lane.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_LIVENESS_H
#define STINKYTOFU_ANALYSIS_LIVENESS_H

#include "stinkytofu/analysis/CallEffects.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/analysis/AnalysisManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <vector>

namespace stinkytofu {

/// Where a client knows more than the defaults assume.
struct LivenessOptions {
  /// The units live after a return of the function (isReturn, not a program
  /// end): what its callers may read. Everything when unset.
  std::optional<llvm::BitVector> LiveAfterReturn;
  /// Whether a call ends the liveness of what it surely writes (its own
  /// defs and its callees' MustWrite); when not, a call only adds what it
  /// reads.
  bool CallsEndLiveness = true;
  /// What a callee that is not known (CallEffects.h) may read, when the
  /// caller knows its convention passes less than everything.
  std::optional<llvm::BitVector> UnknownCalleeReads;
};

class Liveness {
public:
  /// Computes block live-in/live-out of \p F, which must belong to a module
  /// (its target and callees come from there).
  explicit Liveness(Function &F, LivenessOptions Options = {});
  Liveness(Liveness &&);
  ~Liveness();

  const Function &function() const { return *Fn; }
  const RegisterUnits &units() const { return *RU; }
  unsigned numUnits() const { return RU->numUnits(); }

  // --- Blocks ---------------------------------------------------------------
  const llvm::BitVector &liveIn(const BasicBlock &BB) const;
  const llvm::BitVector &liveOut(const BasicBlock &BB) const;

  // --- Instructions (of this function) ---------------------------------------
  // The sets of a block are computed on the first query about one of its
  // instructions and stay valid as long as this object. Blocks and
  // instructions of another function are answered with everything live.
  /// Computes the sets of every block now, so that later queries describe
  /// the function as it is now even when its instructions change.
  void computeAllInstructionSets() const;
  const llvm::BitVector &liveBefore(const Instruction &I) const;
  const llvm::BitVector &liveAfter(const Instruction &I) const;
  /// Any unit of \p R is live.
  bool isLiveBefore(const Instruction &I, llvm::MCRegister R) const;
  bool isLiveAfter(const Instruction &I, llvm::MCRegister R) const;
  /// By MC name: "SCC", "M0", "EXEC", "VCC", "EXEC_LO", "SGPR4_SGPR5" (or
  /// lower case). A name the target does not know is reported live, the
  /// answer that is safe for a caller about to clobber it.
  bool isLiveBefore(const Instruction &I, llvm::StringRef MCName) const;
  bool isLiveAfter(const Instruction &I, llvm::StringRef MCName) const;

  /// The registers \p I may read and may write: its operands, what its
  /// callee reads and may write for a call, everything for an opaque one.
  llvm::BitVector readsOf(const Instruction &I) const;
  llvm::BitVector writesOf(const Instruction &I) const;
  /// Add readsOf(\p I), writesOf(\p I) or both to \p Into without building
  /// a set (a union over every instruction of a function, a buffer reused
  /// from one instruction to the next).
  void addReadsOf(const Instruction &I, llvm::BitVector &Into) const;
  void addWritesOf(const Instruction &I, llvm::BitVector &Into) const;
  void addAccessesOf(const Instruction &I, llvm::BitVector &Into) const;

  /// The 32-bit SGPRs s0..s[maxSGPRs-1] with no unit live before \p I.
  std::vector<llvm::MCRegister> deadSGPRsBefore(const Instruction &I) const;

  /// A 32-bit SGPR (\p Count 1) or an SGPR tuple of \p Count registers that
  /// is not live at any point of the range [First, Last] (before and after
  /// each of its instructions) and that no instruction of the range may
  /// write, so code inserted anywhere in the range can use it as scratch.
  /// The range is the instructions from \p First to \p Last in layout order,
  /// both in this function, First not after Last. With \p Aligned, a pair
  /// starts at an even index and a larger tuple at a multiple of 4 (what
  /// SMEM and 64-bit SALU operands require); without it any start that MC
  /// has a tuple for. Only s0..s[maxSGPRs-1] are considered: a register
  /// beyond the kernel's declared SGPR count still has to be accounted for
  /// in its descriptor by the caller. The lowest such register, or none.
  std::optional<llvm::MCRegister> findFreeSGPR(const Instruction &First,
                                               const Instruction &Last,
                                               unsigned Count = 1,
                                               bool Aligned = true) const;

  /// The effect assumed for the callee(s) of the call \p I; null when \p I
  /// is not a call of this function.
  const CallEffect *callEffect(const Instruction &I) const;

  /// Live-in and live-out of every block, by register name.
  void print(llvm::raw_ostream &OS) const;

private:
  class Solver;
  struct Position {
    unsigned Block;
    unsigned Index;
  };

  /// Live-before of each instruction of block number \p Block, then its
  /// live-out.
  const std::vector<llvm::BitVector> &points(unsigned Block) const;
  std::optional<Position> positionOf(const Instruction &I) const;

  const Function *Fn;
  std::unique_ptr<RegisterUnits> RU;
  std::unique_ptr<Solver> Flow;
  llvm::DenseMap<const Instruction *, Position> InstPos;
  /// Answer for blocks and instructions of another function.
  llvm::BitVector AllLive;
};

/// Declares that \p F's result of analysis \p Key depends on the bodies of
/// F's callees, as liveness does (calls are read through them).
void addCalleeDependencies(Function &F, AnalysisManager &AM, const AnalysisKey &Key);

/// Liveness of \p F with \p Options, for an analysis that needs other
/// options than LivenessAnalysis's: an error when F's CFG is not valid, and
/// the result of analysis \p Key depends on F's callees' bodies.
llvm::Expected<Liveness> computeLiveness(Function &F, AnalysisManager &AM, const AnalysisKey &Key,
                                         LivenessOptions Options = {});

/// Liveness over a function's edges: an error when its CFG is not valid.
struct LivenessAnalysis {
  static AnalysisKey Key;
  using Result = Liveness;
  llvm::Expected<Result> run(Function &F, AnalysisManager &AM);
};

} // namespace stinkytofu

#endif

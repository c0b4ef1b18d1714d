//===- BranchConditions.h - What the branches a path took say -----*- C++ -*-===//
//
// Branch correlation for the forward analyses: the facts a path establishes
// by the conditional branches it takes, so that a path taking one branch on
// a condition and then the other way on the same, unchanged condition is
// known infeasible.
//
// A condition is the value a comparison (TSFlags SOPC or VOPC, one MC
// instruction; MC sets VOPC on the 32-bit encoding only, so a `_e64`
// compare into an SGPR pair is not followed) wrote into a register a conditional branch of the function
// reads (SCC, VCC, EXEC): `s_cmp_eq_u32 s5, 1`, `v_cmp_gt_i32 vcc, v0, v1`.
// Two comparisons with the same opcode and the same operands (registers,
// immediates, `.set` constants) compute the same value while none of the
// registers they read (MC's uses, EXEC and MODE included) is written in
// between; so a condition is named by its instruction's spelling and holds
// only until a register it reads is written. A comparison that writes a
// register it reads (v_cmpx writes EXEC) names no condition. Other writers
// of SCC, VCC or EXEC only end what was known of the register.
//
// The path state (PathFacts) binds each condition register to the
// condition now in it and keeps the facts the branches taken established:
// condition C is zero, or nonzero. An edge out of a block ending in a
// conditional branch on a bound register adds the fact its direction
// implies (which direction branches on zero is HardwareModel's
// BranchIfZero/BranchIfNonZero role); it is infeasible when the opposite
// fact holds. Everything is kept when in doubt: an unbound register, a
// branch reading registers the condition does not cover, an opaque
// instruction or a call (which clear every fact), and at most MaxFacts
// facts per path.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_BRANCHCONDITIONS_H
#define STINKYTOFU_ANALYSIS_BRANCHCONDITIONS_H

#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCRegister.h"
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

/// Condition number \p Condition was nonzero (or zero) where a branch
/// tested it, and still is.
struct BranchFact {
  unsigned Condition = 0;
  bool NonZero = false;
  auto operator<=>(const BranchFact &) const = default;
};

/// The branch facts of one path (or of paths that agree on them).
struct PathFacts {
  /// Each condition register with the condition it holds.
  llvm::SmallVector<std::pair<llvm::MCRegister, unsigned>, 2> Bound;
  /// Sorted; at most one fact per condition.
  llvm::SmallVector<BranchFact, 4> Facts;
  bool operator==(const PathFacts &) const = default;

  /// Keeps what both \p A and \p B hold, in \p A (a join: paths that agree).
  static void intersect(PathFacts &A, const PathFacts &B);
};

class BranchConditions {
public:
  /// Facts kept per path: beyond it the newest condition is forgotten.
  static constexpr unsigned MaxFacts = 8;

  BranchConditions(const Function &F, const TargetInfo &TI);

  /// Whether any branch of the function can add a fact.
  bool tracksAny() const { return !Branches.empty(); }

  /// \p I's effect on the path: facts and bindings about registers it
  /// writes are forgotten; a condition producer binds its destination.
  void transfer(const Instruction &I, PathFacts &P) const;
  /// Whether transfer() can change any path's facts at \p I.
  bool changesFacts(const Instruction &I) const { return Effects.count(&I); }

  /// Whether the edge \p From -> \p To can add a fact at all.
  bool decides(const BasicBlock &From, const BasicBlock &To) const;
  /// Takes the edge: adds the fact it implies. False when the facts of
  /// \p P contradict it (no path with them takes the edge).
  bool takeEdge(const BasicBlock &From, const BasicBlock &To, PathFacts &P) const;
  /// The fact taking the edge establishes with the bindings of \p P.
  std::optional<BranchFact> edgeFact(const BasicBlock &From, const BasicBlock &To,
                                     const PathFacts &P) const;

  /// `s_cmp_eq_u32 s5, 1 true` (nonzero; false: zero), for messages.
  std::string describe(const BranchFact &F) const;

private:
  struct Condition {
    const Instruction *First = nullptr; ///< the first producer, for messages
    llvm::BitVector Reads;              ///< units of the registers it reads
  };
  struct Producer {
    llvm::SmallVector<unsigned, 4> DefUnits;
    /// The condition registers it writes; Condition is valid if it names one.
    llvm::SmallVector<llvm::MCRegister, 2> Binds;
    int Condition = -1;
    bool ClearsAll = false;
  };
  struct Branch {
    llvm::SmallVector<unsigned, 4> ReadUnits;
    llvm::SmallVector<llvm::MCRegister, 2> Reads;
    const BasicBlock *Target = nullptr; ///< the successor when taken
    bool TakenIfNonZero = false;
  };

  /// The condition \p I computes into a condition register, or -1.
  int conditionOf(const Instruction &I);
  std::optional<unsigned> testedCondition(const Branch &B, const PathFacts &P) const;

  RegisterUnits RU;
  llvm::BitVector ConditionRegisterUnits;
  std::vector<Condition> Conditions;
  llvm::StringMap<unsigned> ConditionsBySpelling;
  llvm::DenseMap<const Instruction *, Producer> Effects;
  llvm::DenseMap<const BasicBlock *, Branch> Branches;
};

} // namespace stinkytofu

#endif

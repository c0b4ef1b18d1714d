//===- HazardAnalysis.h - Wait states a function lacks ----------*- C++ -*-===//
//
// For each instruction of a function and each rule of its processor
// (hw/HazardModel.h), the producers before it on every CFG path, and how many
// wait states (or VALUs) short of the rule the nearest one is. Wait states
// are counted as LLVM counts them: an instruction is one, `s_nop N` is N+1;
// over block boundaries and loop back edges the worst path counts. XNACK
// soft clauses follow LLVM too: the memory instructions issued right before,
// in layout order, within the hazard recognizer's look-ahead.
//
// The analysis reads the code as it is when asked: HazardRecognizerPass
// asks again after each insertion (refresh()).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_HAZARDANALYSIS_H
#define STINKYTOFU_ANALYSIS_HAZARDANALYSIS_H

#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/analysis/HazardFinding.h"
#include "stinkytofu/hw/HazardModel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include <deque>
#include <memory>
#include <vector>

namespace stinkytofu {

class BasicBlock;
class Function;
class Instruction;

/// Why an instruction must wait: the rule, its nearest producer, the
/// register they meet on, and the wait states (or VALUs) missing.
struct HazardShortfall {
  const HazardRule *Rule = nullptr; ///< null for a soft clause
  const Instruction *Producer = nullptr;
  llvm::MCRegister Reg;
  unsigned Missing = 0;
};

/// What an instruction needs in front of it.
struct HazardNeeds {
  unsigned States = 0; ///< wait states (s_nop)
  unsigned Valus = 0;  ///< VALU slots (v_nop)
  llvm::SmallVector<HazardShortfall, 2> Reasons;
  bool empty() const { return !States && !Valus; }
};

/// The hazard traits of instructions with one MC instruction, by what they
/// are computed from and, for the instructions of the analyses that record
/// them, by edit stamp (Instruction::stamp), per hazard model: a lasting
/// result (HazardTraitsCacheAnalysis). The scheduler's guard records: the
/// hazard repair after it reads mostly the same instructions and finds
/// their traits by stamp. Recording where no analysis reads the
/// instructions again would cost more than it saves.
class HazardTraitsCache {
public:
  struct Known {
    HazardTraits Traits;
    bool UsesAgprs; ///< writes or reads an AGPR
  };
  /// A rule an instruction is a consumer of, with the registers it looks
  /// at.
  struct ConsumerRule {
    const HazardRule *Rule;
    llvm::SmallVector<llvm::MCRegister, 4> Registers;
  };
  using ConsumerRules = llvm::SmallVector<ConsumerRule, 4>;
  /// The rules of \p Model a consumer with the traits \p Consumer is a
  /// consumer of, in the model's order.
  static ConsumerRules consumerRules(const HazardModel &Model, const HazardTraits &Consumer);
  /// What one hazard model's traits are kept in.
  class Table {
  public:
    /// The traits of \p I, whose only MC instruction is \p Inst (kept as
    /// long as the cache); with \p Record, kept under its stamp too.
    const Known &traitsOf(const llvm::MCInst &Inst, const Instruction &I, bool Record);
    /// Room for \p More stamps to record.
    void reserve(size_t More) { ByStamp.reserve(ByStamp.size() + More); }
    /// consumerRules() of traits this table keeps (traitsOf), worked out
    /// once for every analysis that reads them.
    const ConsumerRules &rulesOf(const HazardTraits &Kept);

  private:
    friend class HazardTraitsCache;
    explicit Table(const HazardModel &Model) : Model(Model) {}
    const HazardModel &Model;
    /// A deque: the analyses' entries point into it.
    std::deque<Known> Distinct;
    llvm::StringMap<const Known *> ByKey;
    llvm::DenseMap<uint64_t, const Known *> ByStamp;
    llvm::DenseMap<const HazardTraits *, ConsumerRules> RulesOf;
  };
  Table &tableOf(const HazardModel &Model);

private:
  llvm::DenseMap<const HazardModel *, std::unique_ptr<Table>> Tables;
};

/// One HazardTraitsCache per module, kept across passes (stamps change with
/// what the traits are computed from).
struct HazardTraitsCacheAnalysis {
  static AnalysisKey Key;
  using Result = HazardTraitsCache;
  Result run(Module &, AnalysisManager &) { return {}; }
};

class HazardAnalysis {
public:
  /// \p F must have a valid CFG. The traits come from \p Shared, else from
  /// the analysis's own cache; with \p RecordStamps, the traits of the
  /// instructions read are kept under their stamps (another analysis will
  /// read them).
  HazardAnalysis(const Function &F, const HazardModel &Model,
                 HazardTraitsCache *Shared = nullptr, bool RecordStamps = false);

  const HazardModel &model() const { return *Model; }
  /// What \p I lacks now (valid until the next refresh()).
  const HazardNeeds &needs(const Instruction &I) const;
  /// Every shortfall of the function, as verifier findings.
  std::vector<HazardFinding> findings() const;
  /// Re-reads \p BB after instructions were inserted or erased in it.
  void refresh(const BasicBlock &BB);

private:
  struct Position {
    const BasicBlock *Block;
    unsigned Index; ///< in Blocks[Block]
  };
  struct Entry {
    const Instruction *Inst;
    /// Shared by the instructions whose traits are equal (Distinct).
    llvm::SmallVector<const HazardTraits *, 1> Traits;
    unsigned WaitStates = 0, Valus = 0;
    /// needs() of the instruction, when it was asked in generation
    /// NeedsGeneration: the repair pass asks it of every instruction and
    /// the verifier after it asks again of the same analysis.
    mutable HazardNeeds Needs;
    mutable unsigned NeedsGeneration = ~0u;
  };
  /// What a search passing an entry reads of it, apart from the entries'
  /// traits (about 200 bytes an entry): the classes of all its traits.
  struct Brief {
    HazardClassSet Classes = 0;
    unsigned WaitStates = 0, Valus = 0;
  };
  struct BlockEntries {
    std::vector<Entry> Entries;
    std::vector<Brief> Briefs; ///< one per entry
  };

  void read(const BasicBlock &BB);
  HazardNeeds computeNeeds(const Entry &E, Position At) const;
  /// Whether every search computeNeeds makes for \p E ends in its block.
  bool searchesStayInBlock(const Entry &E, const BlockEntries &Block, unsigned Index) const;
  HazardShortfall searchRule(const HazardRule &Rule, const HazardTraits &Consumer,
                             llvm::MCRegister Reg, Position From) const;
  unsigned softClauseNeed(const Entry &Consumer, Position From) const;

  const HazardModel *Model;
  llvm::DenseMap<const BasicBlock *, BlockEntries> Blocks;
  llvm::DenseMap<const Instruction *, Position> Positions;
  /// The blocks in layout order (soft clauses follow the layout).
  std::vector<const BasicBlock *> Layout;
  /// Each block's index in Layout: a soft clause is searched from every
  /// memory instruction, and a search of Layout for its block cost a
  /// kernel with a thousand calls (blocks) 31 M instructions.
  llvm::DenseMap<const BasicBlock *, unsigned> LayoutIndex;
  /// The classes of the function's instructions (a superset after erasing).
  HazardClassSet Present = 0;
  /// LLVM's hazard history: 19 wait states when AGPRs are used, else 5.
  unsigned LookAhead = 5;
  /// The cache when none was shared, and the table the traits of
  /// instructions with one MC instruction come from (a kernel repeats the
  /// same instructions: their traits are computed once).
  std::unique_ptr<HazardTraitsCache> OwnTraits;
  HazardTraitsCache::Table *Traits;
  bool RecordStamps;
  /// The traits of the MC instructions of instructions with several (a
  /// deque: entries point into it).
  std::deque<HazardTraits> SeveralTraits;
  /// Whether an instruction read so far writes or reads an AGPR.
  bool ReadAgprs = false;
  /// The rules a consumer with the traits of \p E's first MC instruction is
  /// a consumer of, each with the registers it looks at: worked out once
  /// per distinct traits, not per instruction and rule (in the shared
  /// table for the traits it keeps, here for those of instructions with
  /// several MC instructions).
  mutable llvm::DenseMap<const HazardTraits *, HazardTraitsCache::ConsumerRules> RulesOf;
  const HazardTraitsCache::ConsumerRules &rulesOf(const Entry &E) const;
  RegisterOverlaps Overlaps;
  /// Bumped by every read: a needs() answer of an earlier generation may
  /// have seen the code before the last change (unless its searches stay
  /// in its block).
  unsigned Generation = 0;
};

/// The hazard analysis of a function, cached: the repair pass keeps it
/// current as it inserts (refresh()) and preserves it, so the verifier after
/// it reads the same analysis instead of building a second. Errors when the
/// function's CFG is not valid.
struct CachedHazardAnalysis {
  static AnalysisKey Key;
  using Result = HazardAnalysis;
  llvm::Expected<Result> run(Function &F, AnalysisManager &AM);
};

} // namespace stinkytofu

#endif

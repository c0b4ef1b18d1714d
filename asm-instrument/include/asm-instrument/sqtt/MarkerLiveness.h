//===- MarkerLiveness.h - Which registers inserted code may use --*- C++ -*-===//
//
// Register liveness of the original program at the insertion points. The
// sets around every original instruction are computed when the object is
// made, before the function changes, and stay valid afterwards: the
// instrumentation verifier checks the changed code against them.
//
// It is the core Liveness analysis, with one refinement: in a callable
// function that follows the AMDGPU C calling convention (declared with
// `.type name,@function`), the caller may read after a return only what a
// callee must preserve, so M0, SCC, VCC and the caller-saved SGPRs
// (CallingConvention.h) are dead at its returns instead of live. Without the
// refinement no register is ever dead before a return, and no exit marker
// that needs M0 could be placed there. In such a function a call ends the
// liveness of nothing, since its callee may write less than it may clobber.
// In every function, a callee outside the module reads only what the
// convention passes it (CallingConvention.h: s0-s32, v0-v31, none of SCC,
// M0 and VCC); callee-saved registers live across the call stay live.
//
// A register a memory operation of the function may still write at a point
// (issued on some path with no wait of its counter for 0 since) is not
// scratch there either, dead or not: the load could land between the
// inserted code's write and read. A function that is not a kernel starts
// with every register in flight on the load, LDS and scalar memory
// counters (its caller's loads: the convention leaves the waits to the
// callee), so nothing is scratch before its first waits for 0; LLVM's
// callees wait at once, and entry markers go after those waits
// (functionEntryPoint, FunctionMarkers.h).
//
// Scratch SGPRs come from the function's budget (RegisterBudget.h): its own
// registers first, then, for a kernel that may grow, the ones above. VGPRs
// (lanes to park an SGPR in) only from the function's own.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_MARKERLIVENESS_H
#define ASM_INSTRUMENT_SQTT_MARKERLIVENESS_H

#include "asm-instrument/sqtt/MarkerSites.h"
#include "asm-instrument/sqtt/RegisterBudget.h"
#include "stinkytofu/analysis/LaneLiveness.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCRegister.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>


namespace stinkytofu::sqtt {

/// What the callers of a function whose every call site is in the module
/// leave to it (ModuleLiveness.h).
struct CallerView {
  /// What any caller reads after a call of the function, or keeps across it.
  llvm::BitVector LiveAfterReturn;
  /// The vector units of which any caller may read some lane after a call
  /// of the function (LaneLiveness.h).
  llvm::BitVector LanesAfterReturn;
  /// v0 .. v[VGPRBudget-1] are the function's to use.
  unsigned VGPRBudget = 0;
};

class MarkerLiveness {
public:
  /// \p Callers: the function's every call site is known (the budgets are
  /// then its callers').
  MarkerLiveness(Function &F, bool AbiReturns, SGPRBudget Budget,
                 const CallerView *Callers = nullptr);
  ~MarkerLiveness();

  const RegisterUnits &units() const { return *RU; }
  const SGPRBudget &budget() const { return Budget; }
  unsigned vgprBudget() const { return VGPRBudget; }
  /// The options the core liveness was computed with (the ABI refinement).
  const LivenessOptions &options() const { return Options; }
  /// The core liveness of the original program, every block's sets kept.
  const Liveness &core() const { return *Core; }
  /// What the callers may read in some lane after a return (null: any
  /// lane of any vector register; LaneLiveness.h).
  const llvm::BitVector *lanesAfterReturn() const {
    return LanesAfterReturn ? &*LanesAfterReturn : nullptr;
  }
  /// Vector units some lane of which the original program may read after
  /// \p I (an original instruction; asked before the function changes).
  llvm::BitVector laneLiveAfter(const Instruction &I) const;

  /// Live units at \p P in the original program.
  const llvm::BitVector &liveAt(const InsertPoint &P) const;
  bool isLive(const InsertPoint &P, llvm::MCRegister R) const;
  bool isLive(const InsertPoint &P, llvm::StringRef MCName) const;
  /// Live units before \p I / after \p I (original instructions only).
  const llvm::BitVector &liveBefore(const Instruction &I) const;
  const llvm::BitVector &liveAfter(const Instruction &I) const;
  const llvm::BitVector &liveIn(const BasicBlock &BB) const;

  /// Whether a memory operation of the original program may still write
  /// \p R at \p P: not scratch, and not to be parked (read) either.
  bool isInFlight(const InsertPoint &P, llvm::MCRegister R) const;
  /// 32-bit SGPRs dead and not in flight at \p P: the function's own, lowest first, then the
  /// ones above its budget up to the limit; at most \p Max of them.
  std::vector<llvm::MCRegister> deadSGPRs(const InsertPoint &P, size_t Max = SIZE_MAX) const;
  /// VCC_LO and VCC_HI where dead and not in flight at \p P: SALU code may use them as any
  /// SGPR, and no descriptor counts them.
  std::vector<llvm::MCRegister> deadVccHalves(const InsertPoint &P) const;
  /// VGPRs at \p P, not in flight, none of whose lanes the program may still read
  /// (LaneLiveness.h: v_writelane_b32 writes its lane whatever EXEC is), that
  /// an SGPR may be parked in (SgprSpill.h): the function's own below v256
  /// (no s_set_vgpr_msb needed), those it never names first, then the one a
  /// kernel may grow to (RegisterBudget.h). In a callable
  /// function only when every call site is known and the callers read no
  /// lane of it after the calls (CallerView): elsewhere its callers'
  /// inactive lanes are in every VGPR. Asked before the function changes.
  std::vector<llvm::MCRegister> deadVGPRs(const InsertPoint &P, size_t Max = SIZE_MAX) const;
  /// A 32-bit SGPR (the function's own if one is, else one above its
  /// budget) that is live nowhere in the function and written by none of
  /// its instructions (callees included).
  std::optional<llvm::MCRegister> freeSGPR() const;

private:
  LivenessOptions Options;
  std::unique_ptr<Liveness> Core;
  /// Made on the first lane question.
  mutable std::unique_ptr<LaneLiveness> Lanes;
  std::optional<llvm::BitVector> LanesAfterReturn;
  const LaneLiveness &lanes() const;
  std::unique_ptr<RegisterUnits> RU;
  SGPRBudget Budget;
  unsigned VGPRBudget = 0; ///< v0 .. v[VGPRBudget-1] are the function's own
  /// A kernel's VGPR above its own that it may grow to (growableVGPR).
  std::optional<unsigned> GrowVGPR;
  /// Units a memory operation may still write before each original
  /// instruction / at the end of each block, as an index in InFlightSets;
  /// absent where none. Consecutive instructions mostly share one set.
  llvm::DenseMap<const Instruction *, unsigned> InFlightBefore;
  llvm::DenseMap<const BasicBlock *, unsigned> InFlightAtEnd;
  std::vector<llvm::BitVector> InFlightSets;
  void computeInFlight(Function &F);
  const llvm::BitVector *inFlightAt(const InsertPoint &P) const;
  /// Live or in flight at \p P.
  llvm::BitVector unusableAt(const InsertPoint &P) const;
  llvm::BitVector Busy; ///< live somewhere or written somewhere
  llvm::BitVector All;
  /// s0 .. s[Budget.Limit-1] with their units, looked up once: every
  /// marker group asks which of them are dead.
  struct Sgpr {
    llvm::MCRegister Reg;
    llvm::SmallVector<unsigned, 2> Units;
  };
  std::vector<Sgpr> Sgprs;
  llvm::SmallVector<llvm::MCRegister, 2> Vcc; ///< VCC_LO, VCC_HI
  /// Registers asked for by name (isLive), looked up once each.
  mutable llvm::SmallVector<std::pair<std::string, llvm::MCRegister>, 4> ByName;
};

/// Whether \p F is a callable that follows the C calling convention: not a
/// kernel, and its symbol is declared `.type <name>,@function`.
bool followsCallingConvention(const Function &F);

/// Whether \p F's symbol is declared `.globl` or `.weak`: code outside the
/// module may call it.
bool isExported(const Function &F);


} // namespace stinkytofu::sqtt

#endif

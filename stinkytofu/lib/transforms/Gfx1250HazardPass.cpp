//===- Gfx1250HazardPass.cpp - s_wait_xcnt 0 for XNACK replay (gfx1250) ---===//
#include "stinkytofu/transforms/Gfx1250HazardPass.h"

#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include <array>

using namespace llvm;

namespace stinkytofu {

namespace {

/// The kinds of memory instruction the hardware keeps in one group; a
/// change of kind drains xcnt. Unknown: an instruction MC does not know,
/// which may be of any kind.
enum class MemoryKind : uint8_t { None, Scalar, Vector, Tensor, Unknown };

enum class DrainReason : uint8_t {
  ForeverSleep,
  InstructionPrefetch,
  VgprMsb,
  AtomicAfterNonAtomic,
  ScalarOverwritesSource,
  FlatOverwritesSource,
  UnknownInstruction,
};
constexpr unsigned NumDrainReasons = 7;
constexpr std::array<StringLiteral, NumDrainReasons> DrainReasonNames = {
    "forever s_sleep",          "s_prefetch_inst_pc_rel",
    "s_set_vgpr_msb",           "first atomic after non-atomic memory",
    "SMEM overwrites a source", "FLAT overwrites a source",
    "unknown instruction"};

// s_sleep's bit 15 sleeps until woken.
constexpr int64_t SleepForeverBit = 0x8000;

/// The open group: its kind, whether it holds a non-atomic access, and the
/// register units its instructions read.
struct ReplayGroup {
  MemoryKind Kind = MemoryKind::None;
  bool HasNonAtomic = false;
  BitVector Sources;

  bool open() const { return Kind != MemoryKind::None; }
  void close() {
    Kind = MemoryKind::None;
    HasNonAtomic = false;
    Sources.reset();
  }
};

class Gfx1250HazardPass final : public Pass {
public:
  explicit Gfx1250HazardPass(bool Profile) : Profile(Profile) {}
  StringRef name() const override { return "Gfx1250HazardPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    CounterModel Counters(M.target());
    if (!Counters.counterNamed("xcnt"))
      return createStringError(inconvertibleErrorCode(),
                               name() + ": " + M.target().processor() +
                                   " has no xcnt counter (the pass is for gfx1250)");
    Walk W{M, context(), M.target(), Counters, InstBuilder(M), {}, {}};
    for (Function &F : M.functions())
      if (Error E = runOnFunction(W, F))
        return std::move(E);
    if (Profile) {
      raw_ostream &OS = context().statsStream();
      OS << "Gfx1250HazardPass: " << sum(W.Inserted) << " s_wait_xcnt 0 inserted\n";
      for (unsigned R = 0; R < NumDrainReasons; ++R)
        if (W.Inserted[R])
          OS << "  " << DrainReasonNames[R] << ": " << W.Inserted[R] << "\n";
    }
    return sum(W.Inserted) ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  struct Walk {
    const Module &M;
    StinkyTofuContext &Ctx;
    const TargetInfo &TI;
    const CounterModel &Counters;
    InstBuilder Builder;
    ReplayGroup Group;
    std::array<unsigned, NumDrainReasons> Inserted{};
  };

  static unsigned sum(const std::array<unsigned, NumDrainReasons> &Counts) {
    unsigned Total = 0;
    for (unsigned C : Counts)
      Total += C;
    return Total;
  }

  static MemoryKind memoryKind(const Walk &W, const Instruction &I) {
    if (I.kind() != InstKind::Machine)
      return MemoryKind::Unknown;
    MemoryAccess A = W.Counters.classify(I.mcInsts().front(), I.mnemonic());
    if (A.has(WaitEvent::SmemTranslation))
      return MemoryKind::Scalar;
    if (A.has(WaitEvent::TensorLds))
      return MemoryKind::Tensor;
    if (A.has(WaitEvent::Translation))
      return MemoryKind::Vector;
    return MemoryKind::None;
  }

  /// A counter wait whose every count is 0: every translation has finished.
  static bool drainsEverything(const Walk &W, const Instruction &I) {
    std::optional<WaitCounts> Counts = W.Counters.decodeWait(I.mcInsts().front(), I.mnemonic());
    if (!Counts || Counts->empty())
      return false;
    return all_of(Counts->Count, [](int N) { return N == WaitCounts::NoWait || N == 0; });
  }

  /// An s_sleep (InstRole::Sleep) that sleeps until woken.
  static bool sleepsForever(const Instruction &I) {
    const MCInst &Inst = I.mcInsts().front();
    return Inst.getNumOperands() == 1 && Inst.getOperand(0).isImm() &&
           (Inst.getOperand(0).getImm() & SleepForeverBit);
  }

  static void addUnits(const Walk &W, BitVector &Units, ArrayRef<MCRegister> Regs) {
    for (MCRegister R : Regs)
      for (MCRegUnit U : W.TI.regInfo().regunits(R))
        Units.set(static_cast<unsigned>(U));
  }

  static bool writesAny(const Walk &W, const Instruction &I, const BitVector &Units) {
    for (MCRegister R : I.facts().Defs)
      for (MCRegUnit U : W.TI.regInfo().regunits(R))
        if (Units.test(static_cast<unsigned>(U)))
          return true;
    return false;
  }

  static bool overwritesOwnSource(const Walk &W, const Instruction &I) {
    BitVector Own(W.TI.regInfo().getNumRegUnits());
    addUnits(W, Own, I.facts().Uses);
    return writesAny(W, I, Own);
  }

  static bool returnsSeveralDwords(const Walk &W, const Instruction &I) {
    size_t Dwords = 0;
    for (MCRegister R : I.facts().Defs)
      Dwords += W.TI.covered32(R).size();
    return Dwords > 1;
  }

  static Error drainBefore(Walk &W, Instruction &I, DrainReason Why) {
    InstInserter At(W.Builder);
    At.setInsertPointBefore(I);
    if (Expected<Instruction &> Wait = At.build("s_wait_xcnt", {BuildOperand::imm(0)}); !Wait)
      return Wait.takeError();
    ++W.Inserted[static_cast<unsigned>(Why)];
    W.Group.close();
    return Error::success();
  }

  /// Whether the next instruction after \p It in its block is a memory one.
  static bool memoryFollows(const Walk &W, ArrayRef<Instruction *> Block, size_t It) {
    for (Instruction *Next : Block.drop_front(It + 1))
      if (Next->kind() != InstKind::Pseudo)
        return memoryKind(W, *Next) != MemoryKind::None;
    return false;
  }

  Error runOnFunction(Walk &W, Function &F) {
    W.Group = ReplayGroup();
    W.Group.Sources.resize(W.TI.regInfo().getNumRegUnits());
    for (BasicBlock &BB : F.blocks()) {
      // Inserting before an instruction leaves the others in place.
      SmallVector<Instruction *, 0> Block;
      for (Instruction &I : BB.instructions())
        if (I.kind() != InstKind::Pseudo)
          Block.push_back(&I);
      for (size_t It = 0; It < Block.size(); ++It)
        if (Error E = visit(W, *Block[It], memoryFollows(W, Block, It)))
          return E;
    }
    return Error::success();
  }

  static Error visit(Walk &W, Instruction &I, bool MemoryNext) {
    ReplayGroup &G = W.Group;
    if (I.kind() != InstKind::Machine) {
      // Unknown contents: drained before, and after it a group of any kind
      // that read every register.
      if (G.open())
        if (Error E = drainBefore(W, I, DrainReason::UnknownInstruction))
          return E;
      G.Kind = MemoryKind::Unknown;
      G.HasNonAtomic = true;
      G.Sources.set();
      return Error::success();
    }
    if (drainsEverything(W, I)) {
      G.close();
      return Error::success();
    }
    // These must not issue with a group open; each closes it (the prefetch
    // is a scalar memory instruction, but one the group rules do not cover).
    std::optional<DrainReason> Boundary;
    InstRole Role = HardwareModel::roleOf(I.mnemonic().lower());
    if (Role == InstRole::Sleep && sleepsForever(I))
      Boundary = DrainReason::ForeverSleep;
    else if (Role == InstRole::InstructionPrefetch)
      Boundary = DrainReason::InstructionPrefetch;
    else if (Role == InstRole::VgprMsbSwitch && !MemoryNext)
      Boundary = DrainReason::VgprMsb;
    if (Boundary && G.open())
      return drainBefore(W, I, *Boundary);
    MemoryKind Kind = memoryKind(W, I);
    // The hardware drains xcnt before every non-memory instruction.
    if (Boundary || Kind == MemoryKind::None) {
      G.close();
      return Error::success();
    }
    if (G.open() && G.Kind != Kind && G.Kind != MemoryKind::Unknown)
      G.close();

    MemoryAccess A = W.Counters.classify(I.mcInsts().front(), I.mnemonic());
    if (Kind == MemoryKind::Scalar && returnsSeveralDwords(W, I) && overwritesOwnSource(W, I))
      // Some of its dwords may return while others are replayed with the
      // source already overwritten: no wait helps, only other registers.
      W.Ctx.diagnose(diagnosticAt(W.M, I, SourceMgr::DK_Warning,
                                  ("Gfx1250HazardPass: '" + I.mnemonic() +
                                   "' returns several dwords into its own address registers: a "
                                   "partial XNACK replay would read them overwritten (no wait "
                                   "can repair this)")
                                      .str()));
    if (A.Atomic && G.HasNonAtomic)
      if (Error E = drainBefore(W, I, DrainReason::AtomicAfterNonAtomic))
        return E;
    // A scalar or generic flat access may not overwrite a source of its
    // group, nor its own once the group is not empty; a global/buffer one
    // may (replayed in order).
    if ((Kind == MemoryKind::Scalar || (A.GenericFlat && !A.Atomic)) && G.open())
      if (writesAny(W, I, G.Sources) || overwritesOwnSource(W, I))
        if (Error E = drainBefore(W, I, Kind == MemoryKind::Scalar
                                            ? DrainReason::ScalarOverwritesSource
                                            : DrainReason::FlatOverwritesSource))
          return E;
    // Tensor transfers keep no replay state.
    if (Kind == MemoryKind::Tensor) {
      G.close();
      return Error::success();
    }
    G.Kind = Kind;
    G.HasNonAtomic |= !A.Atomic;
    addUnits(W, G.Sources, I.facts().Uses);
    return Error::success();
  }

  bool Profile;
};

} // namespace

Expected<std::unique_ptr<Pass>> createGfx1250HazardPass(const PassArguments &Args) {
  bool Profile = false;
  if (Error E = parseFlagArguments(Args, {{"profile", &Profile}}))
    return std::move(E);
  return std::make_unique<Gfx1250HazardPass>(Profile);
}

} // namespace stinkytofu

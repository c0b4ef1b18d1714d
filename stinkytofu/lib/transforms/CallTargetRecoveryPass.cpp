//===- CallTargetRecoveryPass.cpp - Callees of s_swappc_b64 from raw .s ---===//
#include "stinkytofu/transforms/CallTargetRecoveryPass.h"
#include "stinkytofu/analysis/AddressChains.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// The callees CallTargetData gives a call (getCallTargets without copying
/// them).
ArrayRef<std::string> calleesOf(const Instruction &I) {
  const CallTargetData *Targets = isCall(I) ? I.getModifier<CallTargetData>() : nullptr;
  return Targets ? ArrayRef<std::string>(Targets->Callees) : ArrayRef<std::string>();
}

class CallRecovery {
public:
  explicit CallRecovery(Module &M)
      : M(M), Layout(M), AddressTaken(addressTakenLabels(M)) {}

  CallTargetStats run(const PassScope &Scope);

private:
  /// Annotates the calls of \p F it can prove; returns how many.
  unsigned annotate(Function &F, const PassScope &Scope);
  /// Makes \p Label a function start; true when a function was created.
  bool makeCallable(StringRef Label);
  /// The block labelled \p Label anywhere in M (the first in module order).
  BasicBlock *findLabel(StringRef Label);
  /// Whether the callee(s) of \p Call may write \p Reg.
  bool calleeMayWrite(const Instruction &Call, MCRegister Reg);
  /// The callees of \p Call proved under the hypothesis that \p Call
  /// itself leaves \p Pair alone, kept only when every proved callee's body
  /// indeed never writes \p Pair: then the hypothesis holds on every
  /// iteration (an address computed before a loop and called inside it).
  std::optional<std::vector<std::string>>
  proveAssumingCallPreserves(Instruction &Call, MCRegister Pair, AddressProofContext &C);

  struct Summary {
    bool All = false; ///< an opaque instruction or a nested call
    SmallVector<MCRegister, 16> Defs;
  };
  const Summary &summaryOf(const Function &F);

  Module &M;
  CodeLayout Layout;
  StringSet<> AddressTaken;
  /// findLabel's answers: every call site asks for the same few callees.
  /// Cleared when a function is split (blocks change functions).
  StringMap<BasicBlock *> LabelBlocks;
  DenseMap<const Function *, Summary> Summaries;
  /// The call assumed, while proving its own targets, not to clobber them.
  const Instruction *AssumedPreserving = nullptr;
  /// Tail calls annotated so far.
  unsigned TailCalls = 0;
};

BasicBlock *CallRecovery::findLabel(StringRef Label) {
  auto [It, Inserted] = LabelBlocks.try_emplace(Label, nullptr);
  if (Inserted)
    for (Function &F : M.functions())
      if ((It->second = F.findBlock(Label)))
        break;
  return It->second;
}

const CallRecovery::Summary &CallRecovery::summaryOf(const Function &F) {
  auto [It, Inserted] = Summaries.try_emplace(&F);
  if (!Inserted)
    return It->second;
  Summary &S = It->second;
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      if (I.kind() == InstKind::Opaque || I.facts().has(IF_Opaque) || isCall(I))
        S.All = true;
      for (MCRegister D : I.facts().Defs)
        if (!llvm::is_contained(S.Defs, D))
          S.Defs.push_back(D);
    }
  return S;
}

bool CallRecovery::calleeMayWrite(const Instruction &Call, MCRegister Reg) {
  if (&Call == AssumedPreserving)
    return false;
  ArrayRef<std::string> Callees = calleesOf(Call);
  if (Callees.empty())
    return true;
  const MCRegisterInfo &MRI = M.target().regInfo();
  for (const std::string &Name : Callees) {
    BasicBlock *Entry = findLabel(M.resolveAlias(Name));
    // Only a callee that is a whole function of the module has a known body.
    if (!Entry || &Entry->parent()->blocks().front() != Entry)
      return true;
    const Summary &S = summaryOf(*Entry->parent());
    if (S.All || llvm::any_of(S.Defs, [&](MCRegister D) { return MRI.regsOverlap(D, Reg); }))
      return true;
  }
  return false;
}

/// A call, or an `s_setpc_b64` leaving a callable function (a return or a
/// tail call), that has no CallTargetData yet.
static bool unannotatedCallOrExit(const Instruction &I) {
  return (isCall(I) || (isReturn(I) && !isProgramEnd(I))) && !I.getModifier<CallTargetData>();
}

unsigned CallRecovery::annotate(Function &F, const PassScope &Scope) {
  std::vector<Instruction *> Calls;
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions())
      if (unannotatedCallOrExit(I) && inScope(M, Scope, I))
        Calls.push_back(&I);
  if (Calls.empty())
    return 0;

  // Control may also enter at labels whose address is computed for
  // something the CFG does not show (callees among them).
  SmallPtrSet<const BasicBlock *, 8> Open = openEntryBlocks(F, AddressTaken);
  const BasicBlock *First = &F.blocks().front();
  ReachingDefs RD(M.target(), Open, [this](const Instruction &Call, MCRegister Reg) {
    return calleeMayWrite(Call, Reg);
  });
  AddressProofContext C{
      M, RD, Layout,
      [this](StringRef Label) -> const BasicBlock * { return findLabel(Label); },
      [&](const BasicBlock &BB) { return &BB == First || Open.count(&BB); }};

  unsigned Annotated = 0, Tails = 0;
  for (Instruction *Call : Calls) {
    MCRegister Pair = addressPairOf(*Call, M.target());
    if (!Pair.isValid())
      continue;
    const bool Tail = !isCall(*Call);
    std::optional<std::vector<std::string>> Callees = provePairTargets(*Call, Pair, C);
    if (!Callees && !Tail)
      Callees = proveAssumingCallPreserves(*Call, Pair, C);
    // A jump to a label of its own function is a branch, not a tail call.
    if (Callees && Tail && llvm::any_of(*Callees, [&](const std::string &Name) {
          BasicBlock *BB = findLabel(M.resolveAlias(Name));
          return BB && BB->parent() == &F;
        }))
      Callees.reset();
    if (Callees) {
      Call->setModifier(std::make_unique<CallTargetData>(std::move(*Callees), Tail));
      ++Annotated;
      Tails += Tail;
    }
  }
  // A branch's targets changed: its function's CFG is rebuilt.
  if (Tails)
    buildCFG(F);
  TailCalls += Tails;
  return Annotated;
}

std::optional<std::vector<std::string>>
CallRecovery::proveAssumingCallPreserves(Instruction &Call, MCRegister Pair,
                                         AddressProofContext &C) {
  AssumedPreserving = &Call;
  std::optional<std::vector<std::string>> Callees = provePairTargets(Call, Pair, C);
  AssumedPreserving = nullptr;
  if (!Callees)
    return std::nullopt;
  Call.setModifier(std::make_unique<CallTargetData>(*Callees));
  bool Preserved = !calleeMayWrite(Call, Pair);
  Call.removeModifier(ModifierKind::CallTargetData);
  if (!Preserved)
    return std::nullopt;
  return Callees;
}

bool CallRecovery::makeCallable(StringRef Label) {
  BasicBlock *Entry = findLabel(M.resolveAlias(Label));
  if (!Entry)
    return false;
  Function &F = *Entry->parent();
  if (&F.blocks().front() == Entry)
    return false; // already a function start
  // The callee runs from its block to the end of F; nothing but calls may
  // enter it, and it may not fall or branch back into F's remaining blocks.
  SmallPtrSet<const BasicBlock *, 16> Moved;
  bool In = false;
  for (BasicBlock &BB : F.blocks()) {
    In |= &BB == Entry;
    if (In)
      Moved.insert(&BB);
  }
  for (const BasicBlock *BB : Moved) {
    for (const BasicBlock *P : BB->predecessors())
      if (!Moved.count(P))
        return false;
    for (const BasicBlock *S : BB->successors())
      if (!Moved.count(S))
        return false;
  }
  bool WasValid = F.hasValidCFG();
  Function &Callee = M.splitFunction(F, *Entry, Entry->label().str());
  LabelBlocks.clear();
  // No edge crosses the split (checked above): each half keeps exactly the
  // edges it had, so only a CFG that was not valid needs building.
  if (WasValid) {
    F.setCFGValid();
    Callee.setCFGValid();
  } else {
    buildCFG(F);
    buildCFG(Callee);
  }
  return true;
}

CallTargetStats CallRecovery::run(const PassScope &Scope) {
  CallTargetStats Stats;
  for (Function &F : M.functions()) {
    if (!F.hasValidCFG())
      buildCFG(F);
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions())
        if (isCall(I) && !I.getModifier<CallTargetData>() && inScope(M, Scope, I))
          ++Stats.Unannotated;
  }
  // Each round annotates calls or creates functions (both finite), until a
  // round changes nothing. New callee functions let later rounds prove calls
  // whose chains cross an earlier call.
  for (bool Changed = true; Changed;) {
    Changed = false;
    std::vector<Function *> Functions;
    for (Function &F : M.functions())
      Functions.push_back(&F);
    for (Function *F : Functions)
      if (unsigned N = annotate(*F, Scope)) {
        Stats.Resolved += N;
        Changed = true;
      }
    // Each callee once, in first-seen order: a label's split succeeds or
    // fails the same way on a second try. Only calls have callees here
    // (tail calls' targets stay where they are).
    SetVector<StringRef> Callees;
    for (Function &F : M.functions())
      for (const BasicBlock &BB : F.blocks())
        for (const Instruction &I : BB.instructions())
          if (ArrayRef<std::string> Names = calleesOf(I); !Names.empty() && inScope(M, Scope, I))
            Callees.insert_range(Names);
    for (StringRef Callee : Callees)
      if (makeCallable(Callee)) {
        ++Stats.FunctionsCreated;
        Summaries.clear();
        Changed = true;
      }
  }
  Stats.Resolved -= TailCalls;
  Stats.TailCalls = TailCalls;
  return Stats;
}

class CallTargetRecoveryPass final : public Pass {
public:
  StringRef name() const override { return "CallTargetRecoveryPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    recoverCallTargets(M, Scope);
    return PreservedAnalyses::none();
  }
};

} // namespace

CallTargetStats recoverCallTargets(Module &M, const PassScope &Scope) {
  return CallRecovery(M).run(Scope);
}

Expected<std::unique_ptr<Pass>> createCallTargetRecoveryPass(const PassArguments &Args) {
  return createArgumentlessPass<CallTargetRecoveryPass>(Args);
}

} // namespace stinkytofu

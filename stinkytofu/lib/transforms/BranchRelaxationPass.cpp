//===- BranchRelaxationPass.cpp - Short branches out of range become long -===//
#include "stinkytofu/transforms/BranchRelaxationPass.h"
#include "stinkytofu/analysis/BranchRange.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/analysis/RegisterUsage.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCContext.h"

using namespace llvm;

namespace stinkytofu {

namespace {

using Op = BuildOperand;

/// How long branches are built on the module's target, and the labels they
/// introduce.
class LongBranchForm {
public:
  LongBranchForm(Module &M, InstBuilder &B) : M(M), B(B), TI(M.target()) {
    // MC decides which form the target has: s_add_pc_i64 needs no register.
    Expected<Instruction> AddPc = B.build("s_add_pc_i64", {Op::imm(0)});
    AddPc64 = bool(AddPc);
    if (!AddPc)
      consumeError(AddPc.takeError());
    Expected<Instruction> Wait = B.build("s_wait_alu", {Op::text("depctr_sa_sdst(0)")});
    if (Wait)
      SaluWait.emplace(std::move(*Wait));
    else
      consumeError(Wait.takeError());
    for (const Function &F : M.functions())
      for (const BasicBlock &BB : F.blocks())
        if (BB.hasLabel())
          Labels.insert(BB.label());
  }

  bool needsPair() const { return !AddPc64; }
  /// A label no symbol of the module has: `<Stem><N>`.
  std::string newLabel(StringRef Stem);

  /// The jump to \p Target: the instructions before the label \p Post, and
  /// those after it (the label names the address s_getpc_b64 returns).
  struct Jump {
    std::vector<Instruction> BeforeLabel, AfterLabel;
  };
  Expected<Jump> build(StringRef Target, StringRef Post, unsigned Pair);

  /// The registers the jump writes besides its pair (SCC), from MC's facts.
  Expected<std::vector<MCRegister>> clobbers();

private:
  Module &M;
  InstBuilder &B;
  const TargetInfo &TI;
  bool AddPc64 = false;
  std::optional<Instruction> SaluWait;
  StringSet<> Labels;
  StringMap<unsigned> Next; ///< per stem
};

std::string LongBranchForm::newLabel(StringRef Stem) {
  for (;;) {
    std::string L = (Stem + Twine(Next[Stem]++)).str();
    if (Labels.contains(L) || M.assembler().context().lookupSymbol(L))
      continue;
    Labels.insert(L);
    return L;
  }
}

Expected<LongBranchForm::Jump> LongBranchForm::build(StringRef Target, StringRef Post,
                                                     unsigned Pair) {
  Jump J;
  // The offsets are expressions of two labels: parse() assembles them in
  // the module's context, where the labels are.
  std::string Offset = (Target + "-" + Post).str();
  if (AddPc64) {
    Expected<Instruction> Add = B.parse("s_add_pc_i64 " + Offset);
    if (!Add)
      return Add.takeError();
    J.BeforeLabel.push_back(std::move(*Add));
    J.BeforeLabel.back().setModifier(std::make_unique<LabelData>(Target.str()));
    return std::move(J);
  }
  std::string Lo = Op::sgpr(Pair).spelling(), Hi = Op::sgpr(Pair + 1).spelling();
  Expected<Instruction> GetPc = B.build("s_getpc_b64", {Op::sgpr(Pair, 2)});
  Expected<Instruction> AddLo =
      B.parse("s_add_u32 " + Lo + ", " + Lo + ", (" + Offset + ")&4294967295");
  Expected<Instruction> AddHi =
      B.parse("s_addc_u32 " + Hi + ", " + Hi + ", (" + Offset + ")>>32");
  Expected<Instruction> SetPc = B.build("s_setpc_b64", {Op::sgpr(Pair, 2)});
  for (Expected<Instruction> *I : {&GetPc, &AddLo, &AddHi, &SetPc})
    if (!*I)
      return I->takeError();
  SetPc->setModifier(std::make_unique<LabelData>(Target.str()));
  J.BeforeLabel.push_back(std::move(*GetPc));
  if (SaluWait)
    J.AfterLabel.push_back(SaluWait->clone());
  J.AfterLabel.push_back(std::move(*AddLo));
  J.AfterLabel.push_back(std::move(*AddHi));
  if (SaluWait)
    J.AfterLabel.push_back(SaluWait->clone());
  J.AfterLabel.push_back(std::move(*SetPc));
  return std::move(J);
}

Expected<std::vector<MCRegister>> LongBranchForm::clobbers() {
  Expected<Jump> J = build(".Lstinkytofu_relax_probe", ".Lstinkytofu_relax_probe", 0);
  if (!J)
    return J.takeError();
  auto InPair = [&](MCRegister R) {
    return any_of(TI.covered32(R), [&](MCRegister Part) {
      std::optional<unsigned> Idx = TI.indexOf(Part);
      return TI.classOf(Part) == RegClass::SGPR && Idx && *Idx < 2;
    });
  };
  std::vector<MCRegister> Out;
  for (std::vector<Instruction> *Part : {&J->BeforeLabel, &J->AfterLabel})
    for (const Instruction &I : *Part)
      for (MCRegister R : I.facts().Defs)
        if (!InPair(R) && !is_contained(Out, R))
          Out.push_back(R);
  return Out;
}

/// One branch to relax, decided before anything changes.
struct Relaxation {
  Instruction *Branch;
  std::string Target;
  std::string Inverted; ///< the inverted mnemonic of a conditional branch
  unsigned Pair = 0;
};

class FunctionRelaxer {
public:
  FunctionRelaxer(Function &F, InstBuilder &B, LongBranchForm &Form, AnalysisManager &AM,
                  const PassScope &Scope)
      : F(F), M(*F.parent()), TI(M.target()), B(B), Form(Form), AM(AM), Scope(Scope) {}

  Expected<unsigned> run();

private:
  Expected<Relaxation> plan(const BranchLayout::OutOfRange &R, const Liveness &Live,
                            ArrayRef<MCRegister> Clobbers, unsigned Budget);
  Error apply(const Relaxation &R);
  /// "the branch to 'L' is out of range (...) and cannot become a long
  /// branch: <Why>", at \p R's branch.
  Error fail(const BranchLayout::OutOfRange &R, const Twine &Why) const;

  Function &F;
  Module &M;
  const TargetInfo &TI;
  InstBuilder &B;
  LongBranchForm &Form;
  AnalysisManager &AM;
  const PassScope &Scope;
};

Error FunctionRelaxer::fail(const BranchLayout::OutOfRange &R, const Twine &Why) const {
  SourceLocation L = R.Branch->location();
  return sourceError(M.fileName(), L.Line, L.Column, R.Branch->sourceText().rtrim("\r\n"),
                     "the branch to '" + R.Target + "' is out of range (offset " +
                         Twine(R.Offset) + " dwords; a short branch reaches " +
                         Twine(INT16_MIN) + ".." + Twine(INT16_MAX) +
                         ") and cannot become a long branch: " + Why);
}

Expected<Relaxation> FunctionRelaxer::plan(const BranchLayout::OutOfRange &R,
                                           const Liveness &Live, ArrayRef<MCRegister> Clobbers,
                                           unsigned Budget) {
  // The layout measured this function, which we may edit.
  Instruction &Br = const_cast<Instruction &>(*R.Branch);
  if (!isBranch(Br))
    return fail(R, "it is inside a macro expansion");
  Relaxation Plan{&Br, R.Target, "", 0};
  if (isConditionalBranch(Br)) {
    Plan.Inverted = invertedBranchMnemonic(Br);
    if (Plan.Inverted.empty())
      return fail(R, "'" + Br.mnemonic() + "' has no inverse condition");
  }
  const BasicBlock *Target = F.findBlock(R.Target);
  const BitVector &LiveIn = Live.liveIn(*Target);
  const RegisterUnits &RU = Live.units();
  for (MCRegister C : Clobbers)
    if (RU.any(LiveIn, C))
      return fail(R, TI.asmName(C) + " is live there");
  if (!Form.needsPair())
    return Plan;
  for (unsigned P = 0; P + 2 <= Budget; P += 2) {
    MCRegister Pair = RU.sgprTuple(P, 2);
    if (Pair.isValid() && !RU.any(LiveIn, Pair)) {
      Plan.Pair = P;
      return Plan;
    }
  }
  return fail(R, "no SGPR pair among s0..s" + Twine(Budget ? Budget - 1 : 0) +
                     " (the ones the function names) is dead there");
}

Error FunctionRelaxer::apply(const Relaxation &R) {
  Instruction &Br = *R.Branch;
  BasicBlock &BB = *Br.parent();
  std::string Post = Form.newLabel(Form.needsPair() ? ".Lpost_getpc" : ".Lpost_addpc");
  Expected<LongBranchForm::Jump> J = Form.build(R.Target, Post, R.Pair);
  if (!J)
    return J.takeError();
  std::string Skip;
  std::optional<Instruction> Inverted;
  if (!R.Inverted.empty()) {
    Skip = Form.newLabel(".Lrelax_skip");
    Expected<Instruction> Inv = B.build(R.Inverted, {Op::label(Skip)});
    if (!Inv)
      return Inv.takeError();
    Inv->setTrailingComment(Br.trailingComment().str());
    Inverted.emplace(std::move(*Inv));
  }

  // BB: ... [inverted branch] jump-before-label | Post: jump-after-label |
  // [Skip:] and the directives that followed the branch.
  auto Rest = std::next(static_cast<BlockItem &>(Br).getIterator());
  if (Inverted)
    BB.insert(Rest, std::move(*Inverted));
  for (Instruction &I : J->BeforeLabel)
    BB.insert(Rest, std::move(I));
  // The branch's comments go to the code that replaces it.
  Br.eraseFromParent();
  auto After = std::next(BB.getIterator());
  BasicBlock &PostBB = F.insertBlock(After, Post);
  for (Instruction &I : J->AfterLabel)
    PostBB.append(std::move(I));
  BasicBlock &Tail = Skip.empty() ? PostBB : F.insertBlock(After, Skip);
  Tail.splice(Tail.items().end(), BB, Rest, BB.items().end());
  return Error::success();
}

Expected<unsigned> FunctionRelaxer::run() {
  Expected<std::vector<MCRegister>> Clobbers = Form.clobbers();
  if (!Clobbers)
    return Clobbers.takeError();
  InstructionSizes Sizes(M);
  unsigned Relaxed = 0;
  for (;;) {
    buildCFG(F);
    std::vector<BranchLayout::OutOfRange> Far = BranchLayout(F, Sizes).outOfRange();
    std::erase_if(Far, [&](const BranchLayout::OutOfRange &R) {
      return !inScope(M, Scope, *R.Branch);
    });
    if (Far.empty())
      return Relaxed;
    // Plan every branch on this round's liveness, then edit: the code a
    // relaxation adds writes only registers dead where it jumps, so one
    // plan does not change another's.
    AM.invalidate(F, PreservedAnalyses::none());
    Expected<Liveness &> Live = AM.getResult<LivenessAnalysis>(F);
    if (!Live)
      return Live.takeError();
    // The pair is one the function already has: no budget grows.
    unsigned Budget = namedSGPRCount(F);
    std::vector<Relaxation> Plans;
    for (const BranchLayout::OutOfRange &R : Far) {
      Expected<Relaxation> P = plan(R, *Live, *Clobbers, Budget);
      if (!P)
        return P.takeError();
      Plans.push_back(std::move(*P));
    }
    for (const Relaxation &R : Plans)
      if (Error E = apply(R))
        return std::move(E);
    AM.invalidate(F, PreservedAnalyses::none());
    Relaxed += Plans.size();
  }
}

class BranchRelaxationPass final : public Pass {
public:
  StringRef name() const override { return "BranchRelaxation"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                  const PassScope &Scope) override {
    InstBuilder B(M);
    for (Function &F : M.functions())
      if (Expected<unsigned> N = relaxBranches(F, B, AM, Scope); !N)
        return N.takeError();
    return PreservedAnalyses::none();
  }
};

} // namespace

Expected<unsigned> relaxBranches(Function &F, InstBuilder &B, AnalysisManager &AM,
                                 const PassScope &Scope) {
  LongBranchForm Form(*F.parent(), B);
  return FunctionRelaxer(F, B, Form, AM, Scope).run();
}

Expected<std::unique_ptr<Pass>> createBranchRelaxationPass(const PassArguments &Args) {
  return createArgumentlessPass<BranchRelaxationPass>(Args);
}

} // namespace stinkytofu

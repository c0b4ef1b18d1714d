//===- BranchRelaxationPass.cpp - Short branches out of range become long -===//
#include "stinkytofu/transforms/BranchRelaxationPass.h"
#include "stinkytofu/analysis/BranchRange.h"
#include "stinkytofu/analysis/RegisterUsage.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"

using namespace llvm;

namespace stinkytofu {

using Op = BuildOperand;

static Error failure(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

LongBranchBuilder::LongBranchBuilder(Module &M, InstBuilder &B) : M(M), B(B) {
  // MC decides which form the target has: s_add_pc_i64 needs no register.
  Expected<Instruction> AddPc = B.build("s_add_pc_i64", {Op::imm(0)});
  AddPc64 = bool(AddPc);
  if (!AddPc)
    consumeError(AddPc.takeError());
  DepCtrFields SaluResults;
  SaluResults.SaSdst = 0;
  Expected<Instruction> Wait = B.build("s_wait_alu", {Op::depctr(SaluResults)});
  if (Wait)
    SaluWait.emplace(std::move(*Wait));
  else
    consumeError(Wait.takeError());
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      if (BB.hasLabel())
        Labels.insert(BB.label());

  // What a jump writes besides its pair, from one built with s[0:1].
  const TargetInfo &TI = M.target();
  Expected<Jump> J = build(".Lstinkytofu_relax_probe", ".Lstinkytofu_relax_probe", 0);
  if (!J) {
    ClobbersUnknown = toString(J.takeError());
    return;
  }
  auto InPair = [&](MCRegister R) {
    return any_of(TI.covered32(R), [&](MCRegister Part) {
      std::optional<unsigned> Idx = TI.indexOf(Part);
      return TI.classOf(Part) == RegClass::SGPR && Idx && *Idx < 2;
    });
  };
  for (std::vector<Instruction> *Part : {&J->BeforeLabel, &J->AfterLabel})
    for (const Instruction &I : *Part)
      for (MCRegister R : I.facts().Defs)
        if (!InPair(R) && !is_contained(Clobbers, R))
          Clobbers.push_back(R);
}

std::string LongBranchBuilder::newLabel(StringRef Stem) {
  for (;;) {
    std::string L = (Stem + Twine(Next[Stem]++)).str();
    if (Labels.contains(L) || M.assembler().context().lookupSymbol(L))
      continue;
    Labels.insert(L);
    return L;
  }
}

Expected<LongBranchBuilder::Jump> LongBranchBuilder::build(StringRef Target, StringRef Post,
                                                           unsigned Pair) {
  Jump J;
  // The offset from the label after the PC is read to the target, which
  // MC resolves when the code is laid out.
  const MCExpr *Offset = B.labelDifference(Target, Post);
  if (AddPc64) {
    Expected<Instruction> Add = B.build("s_add_pc_i64", {B.expression(Offset)});
    if (!Add)
      return Add.takeError();
    J.BeforeLabel.push_back(std::move(*Add));
    J.BeforeLabel.back().setModifier(std::make_unique<LabelData>(Target.str()));
    return std::move(J);
  }
  // Added to the pair as two halves: the low one sets the carry. (`>>` is
  // a logical shift where MC reads AMDGPU assembly.)
  MCContext &Ctx = B.context();
  const MCExpr *Low =
      MCBinaryExpr::createAnd(Offset, MCConstantExpr::create(0xffffffff, Ctx), Ctx);
  const MCExpr *High = MCBinaryExpr::createLShr(Offset, MCConstantExpr::create(32, Ctx), Ctx);
  Expected<Instruction> GetPc = B.build("s_getpc_b64", {Op::sgpr(Pair, 2)});
  Expected<Instruction> AddLo =
      B.build("s_add_u32", {Op::sgpr(Pair), Op::sgpr(Pair), B.expression(Low)});
  Expected<Instruction> AddHi =
      B.build("s_addc_u32", {Op::sgpr(Pair + 1), Op::sgpr(Pair + 1), B.expression(High)});
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

Expected<LongBranchBuilder::Plan>
LongBranchBuilder::plan(const Instruction &Branch, const BitVector &LiveAtTarget,
                        const RegisterUnits &RU, unsigned SGPRs, ArrayRef<MCRegister> Reserved) {
  if (ClobbersUnknown)
    return failure(*ClobbersUnknown);
  if (!isBranch(Branch))
    return failure("it is inside a macro expansion");
  Plan P;
  if (isConditionalBranch(Branch)) {
    P.Inverted = invertedBranchMnemonic(Branch);
    if (P.Inverted.empty())
      return failure("'" + Branch.mnemonic() + "' has no inverse condition");
  }
  for (MCRegister C : Clobbers)
    if (RU.any(LiveAtTarget, C))
      return failure(M.target().asmName(C) + " is live there");
  if (AddPc64)
    return P;
  BitVector Busy = LiveAtTarget;
  for (MCRegister R : Reserved)
    RU.set(Busy, R);
  for (P.Pair = 0; P.Pair + 2 <= SGPRs; P.Pair += 2)
    if (MCRegister Pair = RU.sgprTuple(P.Pair, 2); Pair.isValid() && !RU.any(Busy, Pair))
      return P;
  return failure("no SGPR pair among s0..s" + Twine(SGPRs ? SGPRs - 1 : 0) +
                 " (the ones the function names) is dead there");
}

Error LongBranchBuilder::relax(Instruction &Branch, StringRef Target, const Plan &P) {
  BasicBlock &BB = *Branch.parent();
  Function &F = *BB.parent();
  std::string Post = newLabel(AddPc64 ? ".Lpost_addpc" : ".Lpost_getpc");
  Expected<Jump> J = build(Target, Post, P.Pair);
  if (!J)
    return J.takeError();
  std::string Skip;
  std::optional<Instruction> Inverted;
  if (!P.Inverted.empty()) {
    Skip = newLabel(".Lrelax_skip");
    Expected<Instruction> Inv = B.build(P.Inverted, {Op::label(Skip)});
    if (!Inv)
      return Inv.takeError();
    Inv->setTrailingComment(Branch.trailingComment().str());
    Inverted.emplace(std::move(*Inv));
  }

  // BB: ... [inverted branch] jump-before-label | Post: jump-after-label |
  // [Skip:] and the directives that followed the branch.
  auto Rest = std::next(static_cast<BlockItem &>(Branch).getIterator());
  if (Inverted)
    BB.insert(Rest, std::move(*Inverted));
  for (Instruction &I : J->BeforeLabel)
    BB.insert(Rest, std::move(I));
  // The branch's comments go to the code that replaces it.
  Branch.eraseFromParent();
  auto After = std::next(BB.getIterator());
  BasicBlock &PostBB = F.insertBlock(After, Post);
  for (Instruction &I : J->AfterLabel)
    PostBB.append(std::move(I));
  BasicBlock &Tail = Skip.empty() ? PostBB : F.insertBlock(After, Skip);
  Tail.splice(Tail.items().end(), BB, Rest, BB.items().end());
  return Error::success();
}

Expected<unsigned> relaxBranches(Function &F, InstBuilder &B, const LivenessOptions &Options,
                                 const PassScope &Scope) {
  Module &M = *F.parent();
  // Made when a branch is out of range: it probes what a jump writes.
  std::optional<LongBranchBuilder> Long;
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
    if (!Long)
      Long.emplace(M, B);
    // Plan every branch on this round's liveness, then edit: the code a
    // relaxation adds writes only registers dead where it jumps, so one
    // plan does not change another's.
    Liveness Live(F, Options);
    // The pair is one the function already has: no budget grows.
    unsigned SGPRs = namedSGPRCount(F);
    std::vector<LongBranchBuilder::Plan> Plans;
    for (const BranchLayout::OutOfRange &R : Far) {
      Expected<LongBranchBuilder::Plan> P =
          Long->plan(*R.Branch, Live.liveIn(*F.findBlock(R.Target)), Live.units(), SGPRs);
      if (!P) {
        SourceLocation L = R.Branch->location();
        return sourceError(M.fileName(), L.Line, L.Column, R.Branch->sourceText().rtrim("\r\n"),
                           "the branch to '" + R.Target + "' is out of range (offset " +
                               Twine(R.Offset) + " dwords; a short branch reaches " +
                               Twine(INT16_MIN) + ".." + Twine(INT16_MAX) +
                               ") and cannot become a long branch: " + toString(P.takeError()));
      }
      Plans.push_back(std::move(*P));
    }
    for (size_t K = 0; K < Far.size(); ++K)
      if (Error E = Long->relax(*Far[K].Branch, Far[K].Target, Plans[K]))
        return std::move(E);
    Relaxed += Plans.size();
  }
}

namespace {

class BranchRelaxationPass final : public Pass {
public:
  StringRef name() const override { return "BranchRelaxation"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    InstBuilder B(M);
    for (Function &F : M.functions())
      if (Expected<unsigned> N = relaxBranches(F, B, {}, Scope); !N)
        return N.takeError();
    return PreservedAnalyses::none();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createBranchRelaxationPass(const PassArguments &Args) {
  return createArgumentlessPass<BranchRelaxationPass>(Args);
}

} // namespace stinkytofu

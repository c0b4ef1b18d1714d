//===- RaiseVgprMsbPass.cpp - s_set_vgpr_msb + low VGPRs -> logical VGPRs -===//
#include "VgprMsbSupport.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/VgprMsbPasses.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// The statement of \p I as written: one a pass placed (InsertVgprMsbPass
/// through withLogicalVgprs) has no source text, and restored from its
/// operands alone it would lose its comment and spelling.
StringRef statementText(Module &M, const Instruction &I) {
  return I.sourceText().empty() ? M.save(instructionText(I)) : I.sourceText();
}

/// The text an instruction printed from its operands has, for its tokens.
std::string formatForTokens(const Instruction &I) {
  std::string Text;
  for (const Operand &Op : I.operands())
    Text += Op.spelling().str() + ", ";
  return Text;
}

/// The state the code has set: not reached yet, one byte, or different on
/// different paths.
struct SetState {
  enum Kind : uint8_t { Unreached, Known, Conflict } K = Unreached;
  uint8_t Value = 0;
  bool operator==(const SetState &) const = default;
  static SetState known(uint8_t V) { return {Known, V}; }
};

class SetStates : public DataflowAnalysis<SetStates, SetState, DataflowDirection::Forward> {
public:
  SetStates(const Function &F, const VgprMsbCodec &Codec) : DataflowAnalysis(F), Codec(Codec) {}
  SetState initialState() const { return {}; }
  SetState entryState() const { return SetState::known(0); }
  void join(SetState &Into, const SetState &From) const {
    if (From.K == SetState::Unreached || Into == From)
      return;
    if (Into.K == SetState::Unreached)
      Into = From;
    else
      Into = {SetState::Conflict, 0};
  }
  void transfer(const Instruction &I, SetState &S) const {
    int64_t Imm;
    if (isSetVgprMsb(I, Codec, &Imm))
      S = SetState::known(vgprmsb::stateOfImmediate(Imm));
    else if (I.facts().has(IF_Call))
      S = SetState::known(0); // a callee returns with the state at 0
  }
  void transferOpaque(const Instruction &, SetState &S) const { S = {SetState::Conflict, 0}; }

private:
  const VgprMsbCodec &Codec;
};

class RaiseVgprMsbPass final : public Pass {
public:
  explicit RaiseVgprMsbPass(VgprMsbOptions Opts) : Opts(Opts) {}
  StringRef name() const override { return "RaiseVgprMsbPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    if (Opts.modeFor(M.target()) == VgprMsbMode::None)
      return PreservedAnalyses::all();
    VgprMsbCodec Codec(M.target());
    unsigned Removed = 0, Raised = 0;
    for (Function &F : M.functions())
      if (Error E = raiseFunction(M, F, Codec, Removed, Raised))
        return std::move(E);
    if (Opts.Stats)
      context().statsStream() << "RaiseVgprMsbPass: " << Removed
                              << " s_set_vgpr_msb removed, " << Raised
                              << " instructions raised\n";
    return Removed || Raised ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  Error raiseFunction(Module &M, Function &F, VgprMsbCodec &Codec, unsigned &Removed,
                      unsigned &Raised) {
    if (!F.hasValidCFG())
      buildCFG(F);
    SetStates States(F, Codec);
    if (Error E = States.run())
      return E;
    for (BasicBlock &BB : F.blocks()) {
      SetState S = States.stateIn(BB);
      // A block no edge reaches (the target of a branch we cannot follow)
      // starts at 0, as LLVM has every block a branch reaches start.
      if (S.K == SetState::Unreached)
        S = SetState::known(0);
      std::vector<Instruction *> Insts;
      for (Instruction &I : BB.instructions())
        Insts.push_back(&I);
      std::vector<bool> Erased(Insts.size(), false);
      for (size_t K = 0; K < Insts.size(); ++K) {
        Instruction &I = *Insts[K];
        int64_t Imm;
        if (isSetVgprMsb(I, Codec, &Imm)) {
          std::optional<uint8_t> StateBefore;
          if (S.K == SetState::Known)
            StateBefore = S.Value;
          S = SetState::known(vgprmsb::stateOfImmediate(Imm));
          // Kept with the next instruction that is not one too, else after
          // the one before; alone in its block it stays.
          size_t Next = K + 1;
          while (Next < Insts.size() && isSetVgprMsb(*Insts[Next], Codec))
            ++Next;
          Instruction *Anchor = Next < Insts.size() ? Insts[Next] : nullptr;
          bool After = !Anchor;
          for (size_t Prev = K; !Anchor && Prev-- > 0;)
            if (!Erased[Prev] && !isSetVgprMsb(*Insts[Prev], Codec))
              Anchor = Insts[Prev];
          if (!Anchor)
            continue;
          auto Notes = std::make_unique<RaisedVgprMsbData>();
          if (const RaisedVgprMsbData *Old = Anchor->getModifier<RaisedVgprMsbData>())
            *Notes = *Old;
          (After ? Notes->After : Notes->Before)
              .push_back({statementText(M, I), I.leadingText(), Imm, StateBefore});
          Anchor->setModifier(std::move(Notes));
          I.eraseFromParent();
          Erased[K] = true;
          ++Removed;
          continue;
        }
        States.transfer(I, S); // calls
        if (I.kind() == InstKind::Opaque) {
          S = {SetState::Conflict, 0};
          continue;
        }
        if (Error E = raiseInstruction(M, I, Codec, S, Raised))
          return E;
      }
    }
    return Error::success();
  }

  Error raiseInstruction(Module &M, Instruction &I, VgprMsbCodec &Codec, const SetState &S,
                         unsigned &Raised) {
    ArrayRef<MCInst> MC = I.mcInsts();
    bool AnyVgpr = false;
    for (const MCInst &Inst : MC)
      for (const MCOperand &Op : Inst)
        AnyVgpr |= Op.isReg() && Codec.vgprIndex(Op.getReg()).has_value();
    if (!AnyVgpr || (S.K == SetState::Known && S.Value == 0))
      return Error::success();
    if (S.K != SetState::Known)
      return errorAt(M, I,
                     "the VGPR MSB state here depends on the path taken (s_set_vgpr_msb "
                     "sets different states on the paths that reach it)");
    if (I.kind() != InstKind::Machine || MC.size() != 1)
      return errorAt(M, I, "VGPRs under a VGPR MSB state are raised in plain instructions "
                           "only, not in a macro invocation");
    MCInst Low = MC.front(), High = Low;
    if (Error E = Codec.raise(High, S.Value))
      return errorAt(M, I, toString(std::move(E)));
    // The operand each VGPR of the text names (by the low register the
    // text writes), and the register it is raised to.
    std::string Printed;
    StringRef Text = I.isModified() ? StringRef(Printed = formatForTokens(I)) : I.sourceText();
    StringRef Written = I.isModified() || !M.hasAssembler() ? StringRef() : I.sourceText();
    SmallVector<int, 8> Operands = Codec.operandsOfTokens(Low, Text, /*Low=*/true);
    size_t K = 0;
    respellVgprs(M, I, High, /*WithNote=*/true,
                 [&](const VgprToken &T) -> std::optional<std::string> {
      int J = K < Operands.size() ? Operands[K] : -1;
      ++K;
      if (J < 0)
        return std::nullopt;
      unsigned Logical = *Codec.vgprIndex(High.getOperand(J).getReg());
      if (Logical == T.First && !T.NoteFirst)
        return std::nullopt;
      return logicalVgprSpelling(Logical, T.Count, T.Bracketed);
    });
    if (!Written.empty() && I.sourceText() != Written) {
      auto Notes = std::make_unique<RaisedVgprMsbData>();
      if (const RaisedVgprMsbData *Old = I.getModifier<RaisedVgprMsbData>())
        *Notes = *Old;
      Notes->WrittenText = Written;
      Notes->RaisedText = I.sourceText();
      I.setModifier(std::move(Notes));
    }
    ++Raised;
    return Error::success();
  }

  VgprMsbOptions Opts;
};

} // namespace

Expected<std::unique_ptr<Pass>> createRaiseVgprMsbPass(const PassArguments &Args) {
  return createVgprMsbPass<RaiseVgprMsbPass>(Args, "RaiseVgprMsbPass");
}

} // namespace stinkytofu

//===- LongBranch.cpp - Long branches and PC-relative addresses ---------===//
#include "rocisa-bridge/builders/LongBranch.h"
#include "rocisa-bridge/code/Branch.h"
#include "rocisa-bridge/code/InstructionClasses.h"

using namespace llvm;

namespace rocisa {

namespace {

/// The PC pair and the offset register among three temporaries.
struct PcRegisters {
  int Pair;   ///< even: s[Pair:Pair+1]
  int Offset; ///< the third register
};

Expected<PcRegisters> pickRegisters(const ContinuousRegister &Tmp, const char *Builder) {
  if (Tmp.size < 3)
    return createStringError(inconvertibleErrorCode(),
                             Twine(Builder) + " needs 3 temporary SGPRs, got " +
                                 Twine(Tmp.size));
  if (Tmp.idx % 2 == 0)
    return PcRegisters{Tmp.idx, Tmp.idx + 2};
  return PcRegisters{Tmp.idx + 1, Tmp.idx};
}

/// Appends one instruction of the class table (its operands fit by
/// construction, so the only error would be a table typo).
void emit(Module &M, StringRef Class, std::vector<InstructionInput> Ops, std::string Comment) {
  Expected<std::shared_ptr<CommonInstruction>> I =
      makeInstruction(Class, std::move(Ops), std::move(Comment));
  cantFail(I.takeError());
  M.add(*I);
}

void emitSetPC(Module &M, int Pair, const std::string &Target) {
  auto SetPC = std::make_shared<SSetPCB64>(sgpr(Pair, 2), "branch to " + Target);
  SetPC->longBranchLabel = Target;
  M.add(SetPC);
}

std::shared_ptr<Module> startModule(const char *Kind, const std::string &Target,
                                    const std::string &Comment) {
  auto M = std::make_shared<Module>(std::string(Kind) + " " + Target);
  if (!Comment.empty())
    M->addComment(Comment);
  return M;
}

/// The start of a three-register sequence towards \p Target: its registers,
/// the label name, the module (with its comment).
struct Sequence {
  PcRegisters R;
  std::string To;
  std::shared_ptr<Module> M;
};

Expected<Sequence> startSequence(const char *Kind, const Label &Target,
                                 const ContinuousRegister &Tmp, const std::string &Comment) {
  Expected<PcRegisters> R = pickRegisters(Tmp, Kind);
  if (!R)
    return R.takeError();
  std::string To = Target.getLabelName();
  return Sequence{*R, To, startModule(Kind, To, Comment)};
}

/// s_getpc_b64 + the label add: the pair holds the address of the next
/// instruction, the offset register the distance from there to \p Target.
void emitPcAndOffset(Module &M, int Pair, int Offset, const std::string &Target) {
  emit(M, "SGetPCB64", {sgpr(Pair, 2)}, "addr of next instr");
  emit(M, "SAddI32", {sgpr(Offset), Target, int64_t(4)}, TargetBranchOffsetComment);
}

void emitAdd(Module &M, int Pair, int Offset) {
  emit(M, "SAddU32", {sgpr(Pair), sgpr(Pair), sgpr(Offset)}, "add target branch offset");
  emit(M, "SAddCU32", {sgpr(Pair + 1), sgpr(Pair + 1), int64_t(0)}, "add high and carry");
}

void emitSub(Module &M, int Pair, int Offset) {
  emit(M, "SAbsI32", {sgpr(Offset), sgpr(Offset)}, "abs offset");
  emit(M, "SSubU32", {sgpr(Pair), sgpr(Pair), sgpr(Offset)}, "sub target branch offset");
  emit(M, "SSubBU32", {sgpr(Pair + 1), sgpr(Pair + 1), int64_t(0)}, "sub high and carry");
}

} // namespace

Expected<std::shared_ptr<Module>> SLongBranch(const Label &Target, ContinuousRegister Tmp,
                                              const std::string &PositiveLabel,
                                              const std::string &Comment) {
  Expected<Sequence> S = startSequence("SLongBranch", Target, Tmp, Comment);
  if (!S)
    return S.takeError();
  auto &[R, To, M] = *S;
  Label Positive(PositiveLabel, "");
  emitPcAndOffset(*M, R.Pair, R.Offset, To);
  emit(*M, "SCmpGeI32", {sgpr(R.Offset), int64_t(0)}, "check positive or negative");
  M->add(SCBranchSCC1(Positive.getLabelName(), "jump when positive"));
  emitSub(*M, R.Pair, R.Offset);
  emitSetPC(*M, R.Pair, To);
  M->add(std::make_shared<Label>(Positive));
  emitAdd(*M, R.Pair, R.Offset);
  emitSetPC(*M, R.Pair, To);
  return M;
}

Expected<std::shared_ptr<Module>> SGetPositivePCOffset(int Sgpr, const Label &Target,
                                                       ContinuousRegister Tmp) {
  if (Tmp.size < 1)
    return createStringError(inconvertibleErrorCode(),
                             "SGetPositivePCOffset needs 1 temporary SGPR");
  if (Sgpr % 2 != 0)
    return createStringError(inconvertibleErrorCode(),
                             "SGetPositivePCOffset: s" + Twine(Sgpr) +
                                 " does not start an even-aligned SGPR pair");
  std::string To = Target.getLabelName();
  auto M = std::make_shared<Module>("SGetPositivePCOffset " + To);
  emitPcAndOffset(*M, Sgpr, Tmp.idx, To);
  emitAdd(*M, Sgpr, Tmp.idx);
  return M;
}

Expected<std::shared_ptr<Module>> SLongBranchPositive(const Label &Target,
                                                      ContinuousRegister Tmp, bool HasAddPCI64,
                                                      const std::string &Comment) {
  Expected<Sequence> S = startSequence("SLongBranchPositive", Target, Tmp, Comment);
  if (!S)
    return S.takeError();
  auto &[R, To, M] = *S;
  if (HasAddPCI64) {
    // The offset is from the end of this 12-byte instruction.
    M->add(SAddPCI64(To + "-.-12", "branch to " + To));
    return M;
  }
  Expected<std::shared_ptr<Module>> Address =
      SGetPositivePCOffset(R.Pair, Target, ContinuousRegister{R.Offset, 1});
  if (!Address)
    return Address.takeError();
  M->addModuleAsFlatItems(*Address);
  emitSetPC(*M, R.Pair, To);
  return M;
}

Expected<std::shared_ptr<Module>> SLongBranchNegative(const Label &Target,
                                                      ContinuousRegister Tmp,
                                                      const std::string &Comment) {
  Expected<Sequence> S = startSequence("SLongBranchNegative", Target, Tmp, Comment);
  if (!S)
    return S.takeError();
  auto &[R, To, M] = *S;
  emitPcAndOffset(*M, R.Pair, R.Offset, To);
  emitSub(*M, R.Pair, R.Offset);
  emitSetPC(*M, R.Pair, To);
  return M;
}

Expected<std::shared_ptr<Module>>
SCLongBranch(LongBranchCondition Cond, const Label &Target, ContinuousRegister Tmp,
             const std::string &NoBranchLabel, const std::string &PositiveLabel, int PosNeg,
             bool HasAddPCI64, const std::string &Comment) {
  std::string To = Target.getLabelName();
  Label Skip(NoBranchLabel, "");
  const char *Kind = Cond == LongBranchCondition::Scc0   ? "SCLongBranchScc0"
                     : Cond == LongBranchCondition::Scc1 ? "SCLongBranchScc1"
                                                         : "SCLongBranchVccnz";
  auto M = startModule(Kind, To, Comment);
  std::string Over = "skip the long branch to " + To;
  switch (Cond) {
  case LongBranchCondition::Scc0:
    M->add(SCBranchSCC1(Skip.getLabelName(), Over));
    break;
  case LongBranchCondition::Scc1:
    M->add(SCBranchSCC0(Skip.getLabelName(), Over));
    break;
  case LongBranchCondition::Vccnz:
    M->add(SCBranchVCCZ(Skip.getLabelName(), Over));
    break;
  }
  Expected<std::shared_ptr<Module>> Long =
      PosNeg > 0   ? SLongBranchPositive(Target, Tmp, HasAddPCI64)
      : PosNeg < 0 ? SLongBranchNegative(Target, Tmp)
                   : SLongBranch(Target, Tmp, PositiveLabel);
  if (!Long)
    return Long.takeError();
  M->add(*Long);
  M->add(std::make_shared<Label>(Skip));
  return M;
}

} // namespace rocisa

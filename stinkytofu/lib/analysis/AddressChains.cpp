//===- AddressChains.cpp - Proving which label a PC pair holds ------------===//
#include "stinkytofu/analysis/AddressChains.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/Casting.h"

using namespace llvm;

namespace stinkytofu {

namespace {

const TargetInfo &targetOf(const AddressProofContext &C) { return C.M.target(); }

/// The one MCInst of a plain machine instruction.
const MCInst *mcOf(const Instruction &I) {
  if (I.kind() != InstKind::Machine || I.mcInsts().size() != 1)
    return nullptr;
  return &I.mcInsts().front();
}

/// Whether \p I is the MC instruction \p Base in any encoding
/// (S_ADD_U32 matches S_ADD_U32_vi, S_ADD_U32_gfx12 ...).
bool is(const Instruction &I, const TargetInfo &TI, StringRef Base) {
  const MCInst *MI = mcOf(I);
  if (!MI)
    return false;
  StringRef Name = TI.instrInfo().getName(MI->getOpcode());
  return Name == Base || (Name.starts_with(Base) && Name.drop_front(Base.size()).starts_with("_"));
}

bool isReg(const MCOperand &Op, MCRegister R) { return Op.isReg() && Op.getReg() == R; }
bool isImm(const MCOperand &Op, int64_t V) { return Op.isImm() && Op.getImm() == V; }

bool isSgpr32(const TargetInfo &TI, MCRegister R) {
  return R.isValid() && TI.classOf(R) == RegClass::SGPR && TI.indexOf(R).has_value();
}

/// A plain symbol reference (no @rel32 or other specifier): its name.
std::optional<StringRef> plainSymbol(const MCExpr *E) {
  const auto *S = dyn_cast_or_null<MCSymbolRefExpr>(E);
  if (!S || S->getSpecifier() != 0)
    return std::nullopt;
  return S->getSymbol().getName();
}

/// `T - P` with plain symbols.
bool matchDifference(const MCExpr *E, StringRef &T, StringRef &P) {
  const auto *B = dyn_cast_or_null<MCBinaryExpr>(E);
  if (!B || B->getOpcode() != MCBinaryExpr::Sub)
    return false;
  std::optional<StringRef> L = plainSymbol(B->getLHS()), R = plainSymbol(B->getRHS());
  if (!L || !R)
    return false;
  T = *L;
  P = *R;
  return true;
}

bool isConstant(const MCExpr *E, int64_t V) {
  const auto *C = dyn_cast_or_null<MCConstantExpr>(E);
  return C && C->getValue() == V;
}

/// `S@rel32@<Half>+<Bias>` as written: the symbol.
std::optional<std::string> rel32Symbol(StringRef Spelling, StringRef Half, int64_t Bias) {
  std::string Compact;
  for (char Ch : Spelling)
    if (!isSpace(Ch))
      Compact += Ch;
  StringRef S = Compact;
  size_t At = S.find('@');
  if (At == StringRef::npos || At == 0)
    return std::nullopt;
  StringRef Name = S.take_front(At), Rest = S.drop_front(At);
  std::string Spec = ("@rel32@" + Half + "+").str();
  if (!Rest.starts_with_insensitive(Spec))
    return std::nullopt;
  int64_t Value;
  if (Rest.drop_front(Spec.size()).getAsInteger(0, Value) || Value != Bias)
    return std::nullopt;
  return Name.str();
}

enum class Sign { Unknown, NonNegative, Negative };

class ChainProver {
public:
  explicit ChainProver(const AddressProofContext &C)
      : C(C), TI(targetOf(C)), SCC(TI.findRegister("SCC")) {}

  /// The label proven for one reaching definition \p H of the pair's high
  /// half; \p LoOut receives the matching low-half definition.
  std::optional<std::string> proveHigh(const Instruction &H, MCRegister Lo32, MCRegister Hi32,
                                       const Instruction *&LoOut);
  std::optional<std::string> resolveTarget(StringRef Symbol) const {
    StringRef Label = C.M.resolveAlias(Symbol);
    if (!C.TargetBlock(Label))
      return std::nullopt;
    return Label.str();
  }

private:
  enum class Form { Add, Sub, Expr };
  std::optional<std::string> proveOffset(const Instruction &G, const Instruction &Lo,
                                         MCRegister Y, Form F);
  std::optional<std::string> proveExpr(const Instruction &G, const Instruction &Lo,
                                       const Instruction &H, unsigned LoExprIdx,
                                       unsigned HiExprIdx);
  Sign guardedSign(const Instruction &Consumer, MCRegister Y, const Instruction &O) const;
  bool signFromLayout(const Instruction &O, StringRef Label, bool WantNonNegative) const;

  const AddressProofContext &C;
  const TargetInfo &TI;
  MCRegister SCC;
};

std::optional<std::string> ChainProver::proveHigh(const Instruction &H, MCRegister Lo32,
                                                  MCRegister Hi32,
                                                  const Instruction *&LoOut) {
  const MCInst *HI = mcOf(H);
  if (!HI || HI->getNumOperands() < 3 || !isReg(HI->getOperand(0), Hi32))
    return std::nullopt;
  const MCOperand &A = HI->getOperand(1), &B = HI->getOperand(2);
  Form F;
  unsigned HiExprIdx = 0;
  if (is(H, TI, "S_ADDC_U32") &&
      ((isReg(A, Hi32) && isImm(B, 0)) || (isImm(A, 0) && isReg(B, Hi32))))
    F = Form::Add;
  else if (is(H, TI, "S_SUBB_U32") && isReg(A, Hi32) && isImm(B, 0))
    F = Form::Sub;
  else if (is(H, TI, "S_ADDC_U32") && ((isReg(A, Hi32) && B.isExpr()) ||
                                       (A.isExpr() && isReg(B, Hi32)))) {
    F = Form::Expr;
    HiExprIdx = A.isExpr() ? 1 : 2;
  } else
    return std::nullopt;

  // The low half: the unique definition before H, in H's block, and the
  // carry (borrow) it produces is what H reads from SCC.
  const Instruction *Lo = C.RD.uniqueBefore(H, Lo32);
  if (!Lo || Lo->parent() != H.parent() || C.RD.uniqueBefore(H, SCC) != Lo)
    return std::nullopt;
  std::optional<unsigned> LoPos = C.Layout.position(*Lo), HPos = C.Layout.position(H);
  if (!LoPos || !HPos || *LoPos >= *HPos)
    return std::nullopt;
  const MCInst *LI = mcOf(*Lo);
  if (!LI || LI->getNumOperands() < 3 || !isReg(LI->getOperand(0), Lo32))
    return std::nullopt;
  const MCOperand &X = LI->getOperand(1), &Z = LI->getOperand(2);
  MCRegister Y;
  unsigned LoExprIdx = 0;
  switch (F) {
  case Form::Add:
    if (!is(*Lo, TI, "S_ADD_U32"))
      return std::nullopt;
    if (isReg(X, Lo32) && Z.isReg())
      Y = Z.getReg();
    else if (isReg(Z, Lo32) && X.isReg())
      Y = X.getReg();
    break;
  case Form::Sub:
    if (is(*Lo, TI, "S_SUB_U32") && isReg(X, Lo32) && Z.isReg())
      Y = Z.getReg();
    break;
  case Form::Expr:
    if (!is(*Lo, TI, "S_ADD_U32"))
      return std::nullopt;
    if (isReg(X, Lo32) && Z.isExpr())
      LoExprIdx = 2;
    else if (X.isExpr() && isReg(Z, Lo32))
      LoExprIdx = 1;
    else
      return std::nullopt;
    break;
  }
  if (F != Form::Expr && (!isSgpr32(TI, Y) || Y == Lo32 || Y == Hi32))
    return std::nullopt;

  // Both halves start from the same s_getpc_b64 of exactly this pair.
  const Instruction *G = C.RD.uniqueBefore(*Lo, Lo32);
  if (!G || G != C.RD.uniqueBefore(H, Hi32) || !is(*G, TI, "S_GETPC_B64"))
    return std::nullopt;
  const MCInst *GI = mcOf(*G);
  if (GI->getNumOperands() < 1 || !GI->getOperand(0).isReg())
    return std::nullopt;
  SmallVector<MCRegister, 4> Pair = TI.covered32(GI->getOperand(0).getReg());
  if (Pair.size() != 2 || Pair[0] != Lo32 || Pair[1] != Hi32)
    return std::nullopt;

  LoOut = Lo;
  if (F == Form::Expr)
    return proveExpr(*G, *Lo, H, LoExprIdx, HiExprIdx);
  return proveOffset(*G, *Lo, Y, F);
}

std::optional<std::string> ChainProver::proveOffset(const Instruction &G,
                                                    const Instruction &Lo, MCRegister Y,
                                                    Form F) {
  // The negative arm subtracts |offset|: s_abs_i32 sY, sX in between.
  const Instruction *Consumer = &Lo;
  MCRegister Offset = Y;
  if (F == Form::Sub) {
    const Instruction *Abs = C.RD.uniqueBefore(Lo, Y);
    const MCInst *AI = Abs ? mcOf(*Abs) : nullptr;
    if (!AI || !is(*Abs, TI, "S_ABS_I32") || AI->getNumOperands() < 2 ||
        !isReg(AI->getOperand(0), Y) || !AI->getOperand(1).isReg() ||
        !isSgpr32(TI, AI->getOperand(1).getReg()))
      return std::nullopt;
    Consumer = Abs;
    Offset = AI->getOperand(1).getReg();
  }
  // The offset: `s_add_{i32,u32} sY, L, 4` right after the s_getpc_b64, so
  // that the PC-relative literal (at getpc's result + 4) gives L - PC.
  const Instruction *O = C.RD.uniqueBefore(*Consumer, Offset);
  const MCInst *OI = O ? mcOf(*O) : nullptr;
  if (!OI || !(is(*O, TI, "S_ADD_I32") || is(*O, TI, "S_ADD_U32")) ||
      OI->getNumOperands() < 3 || !isReg(OI->getOperand(0), Offset) ||
      CodeLayout::adjacentNext(G) != O)
    return std::nullopt;
  const MCOperand &P = OI->getOperand(1), &Q = OI->getOperand(2);
  std::optional<StringRef> Symbol;
  if (P.isExpr() && isImm(Q, 4))
    Symbol = plainSymbol(P.getExpr());
  else if (isImm(P, 4) && Q.isExpr())
    Symbol = plainSymbol(Q.getExpr());
  if (!Symbol)
    return std::nullopt;
  std::optional<std::string> Target = resolveTarget(*Symbol);
  if (!Target)
    return std::nullopt;

  // The add zero-extends the offset, the subtract takes its absolute value:
  // the sign must be known.
  bool WantNonNegative = F == Form::Add;
  if (signFromLayout(*O, *Target, WantNonNegative))
    return Target;
  Sign S = guardedSign(*Consumer, Offset, *O);
  if ((WantNonNegative && S == Sign::NonNegative) || (!WantNonNegative && S == Sign::Negative))
    return Target;
  return std::nullopt;
}

bool ChainProver::signFromLayout(const Instruction &O, StringRef Label,
                                 bool WantNonNegative) const {
  const BasicBlock *TB = C.TargetBlock(Label);
  std::optional<unsigned> LPos = TB ? C.Layout.labelPosition(*TB) : std::nullopt;
  std::optional<unsigned> OPos = C.Layout.position(O);
  if (!LPos || !OPos)
    return false;
  // O sits at the getpc result A; a label after O is above A + 8, one before
  // it (at or before the s_getpc_b64) is below A.
  return WantNonNegative ? *LPos > *OPos : *LPos < *OPos;
}

Sign ChainProver::guardedSign(const Instruction &Consumer, MCRegister Y,
                              const Instruction &O) const {
  // The arm's only way in is one edge out of a block that ends with
  // `s_cmp_* sY, k` + `s_cbranch_scc0/1`, evaluated after O in that block.
  const BasicBlock *B = Consumer.parent();
  if (!B || C.IsOpenEntry(*B) || B->predecessors().size() != 1)
    return Sign::Unknown;
  const BasicBlock *P = B->predecessors().front();
  if (P == B || P->empty() || O.parent() != P)
    return Sign::Unknown;
  unsigned Edges = 0;
  EdgeKind Kind = EdgeKind::Branch;
  for (size_t S = 0; S < P->successors().size(); ++S)
    if (P->successors()[S] == B) {
      ++Edges;
      Kind = P->successorKinds()[S];
    }
  const Instruction &Term = P->instructions().back();
  bool Scc1 = is(Term, TI, "S_CBRANCH_SCC1"), Scc0 = is(Term, TI, "S_CBRANCH_SCC0");
  if (Edges != 1 || (!Scc1 && !Scc0) || Kind == EdgeKind::LongBranch)
    return Sign::Unknown;
  bool Taken = Kind == EdgeKind::Branch;
  bool SccSet = Scc1 ? Taken : !Taken;

  const Instruction *Cmp = C.RD.uniqueBefore(Term, SCC);
  const MCInst *CI = Cmp ? mcOf(*Cmp) : nullptr;
  if (!CI || Cmp->parent() != P || CI->getNumOperands() < 2 || !isReg(CI->getOperand(0), Y) ||
      C.RD.uniqueBefore(*Cmp, Y) != &O)
    return Sign::Unknown;
  std::optional<unsigned> OPos = C.Layout.position(O), CPos = C.Layout.position(*Cmp);
  if (!OPos || !CPos || *OPos >= *CPos)
    return Sign::Unknown;
  const MCOperand &K = CI->getOperand(1);
  bool SccMeansNonNegative;
  if ((is(*Cmp, TI, "S_CMP_GE_I32") && isImm(K, 0)) ||
      (is(*Cmp, TI, "S_CMP_GT_I32") && isImm(K, -1)))
    SccMeansNonNegative = true;
  else if ((is(*Cmp, TI, "S_CMP_LT_I32") && isImm(K, 0)) ||
           (is(*Cmp, TI, "S_CMP_LE_I32") && isImm(K, -1)))
    SccMeansNonNegative = false;
  else
    return Sign::Unknown;
  return SccSet == SccMeansNonNegative ? Sign::NonNegative : Sign::Negative;
}

std::optional<std::string> ChainProver::proveExpr(const Instruction &G, const Instruction &Lo,
                                                  const Instruction &H, unsigned LoExprIdx,
                                                  unsigned HiExprIdx) {
  const MCExpr *LoE = mcOf(Lo)->getOperand(LoExprIdx).getExpr();
  const MCExpr *HiE = mcOf(H)->getOperand(HiExprIdx).getExpr();

  // LLVM's branch relaxation: (T-P)&0xffffffff and (T-P)>>32, P labelling
  // the address right after the s_getpc_b64 (its result).
  const auto *LB = dyn_cast<MCBinaryExpr>(LoE);
  const auto *HB = dyn_cast<MCBinaryExpr>(HiE);
  StringRef T1, P1, T2, P2;
  if (LB && HB && LB->getOpcode() == MCBinaryExpr::And && isConstant(LB->getRHS(), 0xffffffff) &&
      (HB->getOpcode() == MCBinaryExpr::AShr || HB->getOpcode() == MCBinaryExpr::LShr) &&
      isConstant(HB->getRHS(), 32) && matchDifference(LB->getLHS(), T1, P1) &&
      matchDifference(HB->getLHS(), T2, P2) && T1 == T2 && P1 == P2) {
    if (!llvm::is_contained(CodeLayout::labelsAfter(G), P1))
      return std::nullopt;
    return resolveTarget(T1);
  }

  // LLVM's call address: F@rel32@lo+4 and F@rel32@hi+12, the three
  // instructions adjacent (each literal sits 4 and 12 bytes past the PC).
  if (LoExprIdx >= Lo.numOperands() || HiExprIdx >= H.numOperands())
    return std::nullopt;
  std::optional<std::string> LoSym = rel32Symbol(Lo.operand(LoExprIdx).spelling(), "lo", 4);
  std::optional<std::string> HiSym = rel32Symbol(H.operand(HiExprIdx).spelling(), "hi", 12);
  if (!LoSym || !HiSym || *LoSym != *HiSym || CodeLayout::adjacentNext(G) != &Lo ||
      CodeLayout::adjacentNext(Lo) != &H)
    return std::nullopt;
  return resolveTarget(*LoSym);
}

/// Symbols entering \p E positively (not as a subtracted anchor).
void collectPositive(const MCExpr *E, bool Positive, const Module &M, StringSet<> &Out) {
  if (!E)
    return;
  switch (E->getKind()) {
  case MCExpr::SymbolRef:
    if (Positive)
      Out.insert(M.resolveAlias(cast<MCSymbolRefExpr>(E)->getSymbol().getName()));
    return;
  case MCExpr::Unary: {
    const auto *U = cast<MCUnaryExpr>(E);
    collectPositive(U->getSubExpr(), U->getOpcode() == MCUnaryExpr::Minus ? !Positive : Positive,
                    M, Out);
    return;
  }
  case MCExpr::Binary: {
    const auto *B = cast<MCBinaryExpr>(E);
    collectPositive(B->getLHS(), Positive, M, Out);
    collectPositive(B->getRHS(), B->getOpcode() == MCBinaryExpr::Sub ? !Positive : Positive, M,
                    Out);
    return;
  }
  case MCExpr::Specifier:
    collectPositive(cast<MCSpecifierExpr>(E)->getSubExpr(), Positive, M, Out);
    return;
  default:
    return;
  }
}

} // namespace

MCRegister addressPairOf(const Instruction &I, const TargetInfo &TI) {
  const MCInst *MI = mcOf(I);
  if (!MI)
    return MCRegister();
  unsigned Defs = TI.instrInfo().get(MI->getOpcode()).getNumDefs();
  for (unsigned Op = Defs; Op < MI->getNumOperands(); ++Op) {
    if (!MI->getOperand(Op).isReg())
      continue;
    MCRegister R = MI->getOperand(Op).getReg();
    SmallVector<MCRegister, 4> Halves = TI.covered32(R);
    if (Halves.size() == 2 && isSgpr32(TI, Halves[0]) && isSgpr32(TI, Halves[1]) &&
        *TI.indexOf(Halves[1]) == *TI.indexOf(Halves[0]) + 1)
      return R;
  }
  return MCRegister();
}

std::optional<std::vector<std::string>>
provePairTargets(const Instruction &Use, MCRegister Pair, const AddressProofContext &C) {
  const TargetInfo &TI = targetOf(C);
  SmallVector<MCRegister, 4> Halves = TI.covered32(Pair);
  if (Halves.size() != 2 || !isSgpr32(TI, Halves[0]) || !isSgpr32(TI, Halves[1]))
    return std::nullopt;
  MCRegister Lo32 = Halves[0], Hi32 = Halves[1];

  ReachingDefs::Result HighDefs = C.RD.before(Use, Hi32);
  if (HighDefs.FromOutside || HighDefs.Defs.empty())
    return std::nullopt;
  ChainProver Prover(C);
  std::vector<std::string> Targets;
  SmallPtrSet<const Instruction *, 8> LowDefs;
  for (const Instruction *H : HighDefs.Defs) {
    const Instruction *Lo = nullptr;
    std::optional<std::string> T = Prover.proveHigh(*H, Lo32, Hi32, Lo);
    if (!T)
      return std::nullopt;
    LowDefs.insert(Lo);
    if (!llvm::is_contained(Targets, *T))
      Targets.push_back(*T);
  }
  // Each low half sits in its high half's block, before it: when every low
  // definition reaching Use belongs to a proven chain, the halves pair up.
  ReachingDefs::Result LowReach = C.RD.before(Use, Lo32);
  if (LowReach.FromOutside || LowReach.Defs.empty() ||
      !llvm::all_of(LowReach.Defs, [&](const Instruction *D) { return LowDefs.count(D); }))
    return std::nullopt;
  return Targets;
}

bool isAddPc(const Instruction &I) {
  return isBranch(I) && I.facts().has(IF_ComputedTarget) && !I.facts().has(IF_IndirectBranch);
}

std::optional<std::string> proveAddPcTarget(const Instruction &I,
                                            const AddressProofContext &C) {
  const MCInst *MI = mcOf(I);
  if (!isAddPc(I) || !MI || MI->getNumOperands() != 1 || !MI->getOperand(0).isExpr() ||
      I.numOperands() != 1)
    return std::nullopt;
  ChainProver Prover(C);
  // LLVM: T - P with P labelling the address after this instruction.
  StringRef T, P;
  if (matchDifference(MI->getOperand(0).getExpr(), T, P)) {
    if (!llvm::is_contained(CodeLayout::labelsAfter(I), P))
      return std::nullopt;
    return Prover.resolveTarget(T);
  }
  // rocisa: T - . - 12, `.` being this 12-byte instruction's own address.
  const auto *Outer = dyn_cast<MCBinaryExpr>(MI->getOperand(0).getExpr());
  if (!Outer || Outer->getOpcode() != MCBinaryExpr::Sub || !isConstant(Outer->getRHS(), 12) ||
      !matchDifference(Outer->getLHS(), T, P))
    return std::nullopt;
  std::string Compact;
  for (char Ch : I.operand(0).spelling())
    if (!isSpace(Ch))
      Compact += Ch;
  StringRef S = Compact;
  while (S.size() > 2 && S.front() == '(' && S.back() == ')')
    S = S.drop_front().drop_back();
  int64_t N;
  if (!S.consume_front(T) || !S.consume_front("-.-") || S.getAsInteger(0, N) || N != 12)
    return std::nullopt;
  return Prover.resolveTarget(T);
}

StringSet<> addressTakenLabels(const Module &M) {
  StringSet<> Labels;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions()) {
        if (isBranch(I))
          continue; // its label is a CFG edge, not a computed address
        for (const MCInst &MI : I.mcInsts())
          for (const MCOperand &Op : MI)
            if (Op.isExpr())
              collectPositive(Op.getExpr(), true, M, Labels);
      }
  return Labels;
}

SmallPtrSet<const BasicBlock *, 8> openEntryBlocks(const Function &F,
                                                   const StringSet<> &AddressTaken) {
  StringSet<> Targeted;
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions())
      if (isBranch(I))
        if (const LabelData *L = I.getModifier<LabelData>())
          Targeted.insert(L->Label);
  SmallPtrSet<const BasicBlock *, 8> Open;
  for (const BasicBlock &BB : F.blocks())
    if (BB.hasLabel() && AddressTaken.contains(BB.label()) && !Targeted.contains(BB.label()))
      Open.insert(&BB);
  return Open;
}

} // namespace stinkytofu

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

/// A relocated symbol reference `S@<Spec>+<Addend>` (`F@rel32@lo+12`,
/// `F@rel64+4`), read off the MC expression; the specifier is named by the
/// target's MCAsmInfo.
struct RelocationRef {
  StringRef Symbol, Spec;
  int64_t Addend = 0;
};

std::optional<RelocationRef> relocationRef(const MCExpr *E, const TargetInfo &TI) {
  RelocationRef R;
  if (const auto *B = dyn_cast_or_null<MCBinaryExpr>(E)) {
    const auto *C = dyn_cast<MCConstantExpr>(B->getRHS());
    if (B->getOpcode() != MCBinaryExpr::Add || !C)
      return std::nullopt;
    R.Addend = C->getValue();
    E = B->getLHS();
  }
  const auto *S = dyn_cast_or_null<MCSymbolRefExpr>(E);
  if (!S || S->getSpecifier() == 0)
    return std::nullopt;
  R.Symbol = S->getSymbol().getName();
  R.Spec = TI.asmInfo().getSpecifierName(S->getSpecifier());
  return R;
}

enum class Sign { Unknown, NonNegative, Negative };

class ChainProver {
public:
  explicit ChainProver(const AddressProofContext &C)
      : C(C), TI(targetOf(C)), SCC(TI.findRegister("SCC")) {}

  /// TI.covered32(\p Reg), kept for the last register asked: the pair an
  /// s_getpc_b64 writes is the pair the jump reads, and each costs a walk
  /// over the sub-registers.
  const SmallVector<MCRegister, 4> &covered32(MCRegister Reg) const {
    if (Reg != CoveredReg || Covered.empty()) {
      Covered = TI.covered32(Reg);
      CoveredReg = Reg;
    }
    return Covered;
  }

  /// The label proven for one definition \p H of the pair's high half
  /// \p Hi32; \p LoOut receives the matching definition of the low half
  /// \p Lo32 (H itself when H writes the whole pair).
  std::optional<std::string> proveHigh(const Instruction &H, MCRegister Lo32, MCRegister Hi32,
                                       const Instruction *&LoOut);
  /// The instruction whose result \p Def passes on \p Reg: \p Def itself, or,
  /// through SGPR spills to VGPR lanes (`v_writelane_b32 vL, sX, k` ...
  /// `v_readlane_b32 sY, vL, k`: LLVM at -O0 keeps a call address in a lane
  /// across an earlier call), the instruction that computed the spilled
  /// value, each link the unique reaching definition. \p Reg becomes the
  /// register that instruction wrote; \p Spilled is set when a spill was
  /// followed. Null when the chain breaks.
  const Instruction *throughLaneSpills(const Instruction &Def, MCRegister &Reg,
                                       bool &Spilled) const;
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
  std::optional<std::string> proveRel64(const Instruction &H, MCRegister Lo32, MCRegister Hi32);
  const Instruction *pcRead(const Instruction &LoReader, const Instruction &HiReader,
                            MCRegister Lo32, MCRegister Hi32) const;
  /// Whether the literal of \p X sits \p Addend bytes past the PC \p G
  /// returns: the addend of a PC-relative relocation (S + A - P) that makes
  /// the literal S - PC.
  bool literalAt(const Instruction &G, const Instruction &X, int64_t Addend) const {
    std::optional<unsigned> D = C.Layout.literalDistance(G, X);
    return D && *D == Addend;
  }
  Sign guardedSign(const Instruction &Consumer, MCRegister Y, const Instruction &O) const;
  bool signFromLayout(const Instruction &O, StringRef Label, bool WantNonNegative) const;

  const AddressProofContext &C;
  const TargetInfo &TI;
  MCRegister SCC;
  mutable MCRegister CoveredReg;
  mutable SmallVector<MCRegister, 4> Covered;
};

std::optional<std::string> ChainProver::proveHigh(const Instruction &H, MCRegister Lo32,
                                                  MCRegister Hi32,
                                                  const Instruction *&LoOut) {
  if (is(H, TI, "S_ADD_U64")) {
    LoOut = &H;
    return proveRel64(H, Lo32, Hi32);
  }
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

  const Instruction *G = pcRead(*Lo, H, Lo32, Hi32);
  if (!G)
    return std::nullopt;
  LoOut = Lo;
  if (F == Form::Expr)
    return proveExpr(*G, *Lo, H, LoExprIdx, HiExprIdx);
  return proveOffset(*G, *Lo, Y, F);
}

/// Both halves start from the same s_getpc_b64 (s_get_pc_i64) of exactly
/// this pair: the definitions reaching \p LoReader's read of \p Lo32 and
/// \p HiReader's read of \p Hi32. On gfx12 LLVM sign-extends the high half
/// in between (`s_sext_i32_i16 sD+1, sD+1`), which keeps a code address.
const Instruction *ChainProver::pcRead(const Instruction &LoReader, const Instruction &HiReader,
                                       MCRegister Lo32, MCRegister Hi32) const {
  const Instruction *G = C.RD.uniqueBefore(LoReader, Lo32);
  const Instruction *HiDef = C.RD.uniqueBefore(HiReader, Hi32);
  if (HiDef && HiDef != G && is(*HiDef, TI, "S_SEXT_I32_I16")) {
    const MCInst *SI = mcOf(*HiDef);
    if (SI->getNumOperands() < 2 || !isReg(SI->getOperand(0), Hi32) ||
        !isReg(SI->getOperand(1), Hi32))
      return nullptr;
    HiDef = C.RD.uniqueBefore(*HiDef, Hi32);
  }
  if (!G || G != HiDef || !is(*G, TI, "S_GETPC_B64"))
    return nullptr;
  const MCInst *GI = mcOf(*G);
  if (GI->getNumOperands() < 1 || !GI->getOperand(0).isReg())
    return nullptr;
  const SmallVector<MCRegister, 4> &Pair = covered32(GI->getOperand(0).getReg());
  if (Pair.size() != 2 || Pair[0] != Lo32 || Pair[1] != Hi32)
    return nullptr;
  return G;
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

  // LLVM's call address: F@rel32@lo+A and F@rel32@hi+B, each addend the
  // distance from the PC to that literal: +4 and +12 when the three are
  // adjacent; gfx12 puts s_wait_alu and s_sext_i32_i16 between them (+12
  // and +24, or +8 and +16).
  std::optional<RelocationRef> LoRef = relocationRef(LoE, TI), HiRef = relocationRef(HiE, TI);
  if (!LoRef || !HiRef || LoRef->Symbol != HiRef->Symbol ||
      !LoRef->Spec.equals_insensitive("rel32@lo") || !HiRef->Spec.equals_insensitive("rel32@hi") ||
      !literalAt(G, Lo, LoRef->Addend) || !literalAt(G, H, HiRef->Addend))
    return std::nullopt;
  return resolveTarget(LoRef->Symbol);
}

/// gfx1250's call address: `s_get_pc_i64 s[D:D+1]` and
/// `s_add_nc_u64 s[D:D+1], s[D:D+1], F@rel64+A`, one 64-bit add, the addend
/// the distance from the PC to its literal (+4 when adjacent).
std::optional<std::string> ChainProver::proveRel64(const Instruction &H, MCRegister Lo32,
                                                   MCRegister Hi32) {
  const MCInst *HI = mcOf(H);
  if (!HI || HI->getNumOperands() < 3 || !HI->getOperand(0).isReg())
    return std::nullopt;
  MCRegister Pair = HI->getOperand(0).getReg();
  const SmallVector<MCRegister, 4> &Halves = covered32(Pair);
  if (Halves.size() != 2 || Halves[0] != Lo32 || Halves[1] != Hi32)
    return std::nullopt;
  const MCOperand &A = HI->getOperand(1), &B = HI->getOperand(2);
  const MCExpr *E = nullptr;
  if (isReg(A, Pair) && B.isExpr())
    E = B.getExpr();
  else if (A.isExpr() && isReg(B, Pair))
    E = A.getExpr();
  std::optional<RelocationRef> Ref = relocationRef(E, TI);
  const Instruction *G = pcRead(H, H, Lo32, Hi32);
  if (!Ref || !G || !Ref->Spec.equals_insensitive("rel64") || !literalAt(*G, H, Ref->Addend))
    return std::nullopt;
  return resolveTarget(Ref->Symbol);
}

const Instruction *ChainProver::throughLaneSpills(const Instruction &Def, MCRegister &Reg,
                                                  bool &Spilled) const {
  // Writes to other lanes of the spill VGPR keep ours; bound the walk.
  constexpr unsigned MaxLinks = 64;
  unsigned Links = 0;
  const Instruction *D = &Def;
  while (is(*D, TI, "V_READLANE_B32")) {
    const MCInst *RI = mcOf(*D);
    if (RI->getNumOperands() < 3 || !isReg(RI->getOperand(0), Reg) ||
        !RI->getOperand(1).isReg() || !RI->getOperand(2).isImm())
      return nullptr;
    MCRegister Lane = RI->getOperand(1).getReg();
    int64_t K = RI->getOperand(2).getImm();
    const Instruction *W = D;
    for (;;) {
      W = ++Links > MaxLinks ? nullptr : C.RD.uniqueBefore(*W, Lane);
      const MCInst *WI = W && is(*W, TI, "V_WRITELANE_B32") ? mcOf(*W) : nullptr;
      if (!WI || WI->getNumOperands() < 3 || !isReg(WI->getOperand(0), Lane) ||
          !WI->getOperand(2).isImm())
        return nullptr;
      if (WI->getOperand(2).getImm() == K)
        break;
    }
    const MCOperand &Src = mcOf(*W)->getOperand(1);
    if (!Src.isReg() || !isSgpr32(TI, Src.getReg()))
      return nullptr;
    Reg = Src.getReg();
    D = C.RD.uniqueBefore(*W, Reg);
    if (!D)
      return nullptr;
    Spilled = true;
  }
  return D;
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
  ChainProver Prover(C);
  const SmallVector<MCRegister, 4> &Halves = Prover.covered32(Pair);
  if (Halves.size() != 2 || !isSgpr32(TI, Halves[0]) || !isSgpr32(TI, Halves[1]))
    return std::nullopt;
  MCRegister Lo32 = Halves[0], Hi32 = Halves[1];

  ReachingDefs::Result HighDefs = C.RD.before(Use, Hi32);
  if (HighDefs.FromOutside || HighDefs.Defs.empty())
    return std::nullopt;
  bool Spilled = false;
  std::vector<std::string> Targets;
  // The low-half definition of each proven chain, with the register it writes.
  SmallVector<std::pair<const Instruction *, MCRegister>, 4> LowDefs;
  for (const Instruction *D : HighDefs.Defs) {
    MCRegister Hi = Hi32;
    const Instruction *H = Prover.throughLaneSpills(*D, Hi, Spilled);
    std::optional<unsigned> Index = H ? TI.indexOf(Hi) : std::nullopt;
    if (!Index || *Index == 0)
      return std::nullopt;
    MCRegister Lo = TI.reg32(RegClass::SGPR, *Index - 1);
    const Instruction *LoDef = nullptr;
    std::optional<std::string> T = Prover.proveHigh(*H, Lo, Hi, LoDef);
    if (!T)
      return std::nullopt;
    LowDefs.push_back({LoDef, Lo});
    if (!llvm::is_contained(Targets, *T))
      Targets.push_back(*T);
  }
  // Each low half sits in its high half's block, before it: when every low
  // definition reaching Use belongs to a proven chain, the halves pair up.
  ReachingDefs::Result LowReach = C.RD.before(Use, Lo32);
  if (LowReach.FromOutside || LowReach.Defs.empty())
    return std::nullopt;
  for (const Instruction *D : LowReach.Defs) {
    MCRegister Lo = Lo32;
    const Instruction *LoDef = Prover.throughLaneSpills(*D, Lo, Spilled);
    if (!LoDef || !llvm::is_contained(LowDefs, std::make_pair(LoDef, Lo)))
      return std::nullopt;
  }
  // Spills pass each half on separately: a path may then pair the low half
  // of one chain with the high half of another, which is harmless only
  // when every chain computes the same label.
  if (Spilled && Targets.size() != 1)
    return std::nullopt;
  return Targets;
}

bool isAddPc(const Instruction &I) {
  return isComputedBranch(I) && !isIndirectBranch(I);
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
        if (isBranch(I) && !isComputedBranch(I))
          continue; // its label is a CFG edge, not a computed address
        // Most instructions have no expression: their MC stays packed.
        if (!I.facts().has(IF_ExprOperand))
          continue;
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

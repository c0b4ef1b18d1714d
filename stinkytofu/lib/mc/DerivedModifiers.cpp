//===- DerivedModifiers.cpp - Modifiers computed from MC ------------------===//
//
// Every field is read off LLVM's printed form of the MC instruction
// (TargetInfo::printMC): `offset:16`, `gds`, `th:TH_LOAD_NT`, `vmcnt(0)`,
// `instid0(VALU_DEP_1)`. Only the packed immediates that the printer leaves
// as numbers (`s_wait_loadcnt_dscnt 0x102`, an `s_wait_alu` with unknown
// bits) are decoded here, from the bit layouts below.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/mc/DerivedModifiers.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/DerivedModifierFields.h"
#include "stinkytofu/ir/StatementText.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/mc/OperandParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// The reference's field for the gfx12 counter \p Counter (as the hardware
/// model's CounterWait records name it) in derived modifier \p K; the DS
/// count is `dlcnt`, as the reference's wait insertion writes it.
StringRef counterField(ModifierKind K, StringRef Counter) {
  return StringSwitch<StringRef>(Counter)
      .Case("loadcnt", "vlcnt")
      .Case("dscnt", "dlcnt")
      .Case("kmcnt", "kmcnt")
      .Case("tensorcnt", "tlcnt")
      .Case("asynccnt", "asynccnt")
      .Case("storecnt", K == ModifierKind::SWaitStoreCnt ? "storecnt" : "vscnt")
      .Default("");
}

/// The one counter of the waits with a derived modifier of their own.
StringRef ownCounter(ModifierKind K) {
  switch (K) {
  case ModifierKind::SWaitTensorCnt: return "tensorcnt";
  case ModifierKind::SWaitAsyncCnt: return "asynccnt";
  case ModifierKind::SWaitStoreCnt: return "storecnt";
  default: return "";
  }
}

/// The printed instruction, split into its mnemonic and tokens (operands
/// and modifiers; `|` separators of `s_delay_alu` dropped).
struct Printed {
  std::string Mnemonic;
  SmallVector<std::string, 8> Tokens;

  bool has(StringRef Token) const { return is_contained(Tokens, Token); }
  /// The value after \p Prefix (`offset:`) of the token that starts so.
  std::optional<StringRef> after(StringRef Prefix) const {
    for (const std::string &T : Tokens)
      if (StringRef(T).starts_with(Prefix))
        return StringRef(T).drop_front(Prefix.size());
    return std::nullopt;
  }
  /// The value inside `Name(...)`.
  std::optional<StringRef> call(StringRef Name) const {
    std::optional<StringRef> V = after((Name + "(").str());
    if (!V || !V->ends_with(")"))
      return std::nullopt;
    return V->drop_back();
  }
  std::optional<int64_t> integer(size_t Index) const {
    int64_t V;
    if (Index < Tokens.size() && !StringRef(Tokens[Index]).getAsInteger(0, V))
      return V;
    return std::nullopt;
  }
};

Printed printed(const Instruction &I, const TargetInfo &TI) {
  Printed P;
  if (I.mcInsts().empty())
    return P;
  std::string Text = TI.printMC(I.mcInsts().front());
  auto [Mn, Ops] = StringRef(Text).split(' ');
  P.Mnemonic = Mn.str();
  // Operands are comma-separated, their modifiers blank-separated.
  for (StringRef Operand : splitTopLevel(Ops, ','))
    for (StringRef Word : splitTopLevel(Operand, ' ')) {
      Word = Word.trim();
      if (!Word.empty() && Word != "|")
        P.Tokens.push_back(Word.str());
    }
  return P;
}

int64_t toInt(std::optional<StringRef> S, int64_t Default) {
  int64_t V;
  if (!S || S->getAsInteger(0, V))
    return Default;
  return V;
}

AttrValue integerList(StringRef Bracketed) {
  std::vector<AttrValue> L;
  SmallVector<StringRef, 8> Parts;
  Bracketed.trim("[]").split(Parts, ',', -1, false);
  for (StringRef P : Parts)
    L.push_back(AttrValue::integer(toInt(P.trim(), 0)));
  return AttrValue::list(std::move(L));
}

/// What the hardware model calls the instruction's class ("LDS", "SMEM").
StringRef classOf(const Instruction &I, const TargetInfo &TI) {
  return TI.hardware().classify(I.mnemonic()).Name;
}

bool isMemoryAccess(const Instruction &I) {
  return I.facts().has(IF_MayLoad) || I.facts().has(IF_MayStore);
}

/// The explicit source operands (after the definitions), as written.
SmallVector<const Operand *, 4> sources(const Instruction &I, const TargetInfo &TI) {
  unsigned Defs = TI.instrInfo().get(I.mcInsts().front().getOpcode()).getNumDefs();
  SmallVector<const Operand *, 4> Srcs;
  unsigned Seen = 0;
  for (const Operand &Op : I.operands()) {
    if (Op.isModifier())
      continue;
    if (Seen++ >= Defs)
      Srcs.push_back(&Op);
  }
  return Srcs;
}

// --- The derivations ------------------------------------------------------

void deriveDs(const Instruction &I, const Printed &P, AttrDict &D) {
  StringRef Mn = I.mnemonic();
  bool TwoAddresses = Mn.contains("2addr") || Mn.starts_with("ds_read2") ||
                      Mn.starts_with("ds_write2") || Mn.starts_with("ds_wrxchg2");
  D.add("na", AttrValue::integer(TwoAddresses ? 2 : 1));
  D.add("offset", AttrValue::integer(toInt(P.after("offset:"), 0)));
  if (TwoAddresses) {
    D.add("offset0", AttrValue::integer(toInt(P.after("offset0:"), 0)));
    D.add("offset1", AttrValue::integer(toInt(P.after("offset1:"), 0)));
  }
  D.add("gds", AttrValue::boolean(P.has("gds")));
}

void addFlags(const Printed &P, AttrDict &D, std::initializer_list<StringRef> Flags) {
  for (StringRef F : Flags)
    D.add(F.str(), AttrValue::boolean(P.has(F)));
}

void addIfPresent(const Printed &P, AttrDict &D, StringRef Field, StringRef Prefix) {
  if (std::optional<StringRef> V = P.after(Prefix))
    D.add(Field.str(), AttrValue::string(V->str()));
}

void deriveSWaitCnt(const Instruction &I, const Printed &P, AttrDict &D) {
  StringRef Mn = I.mnemonic();
  if (Mn == "s_waitcnt") {
    for (StringRef C : {"vmcnt", "expcnt", "lgkmcnt"})
      D.add(C.str(), AttrValue::integer(toInt(P.call(C), -1)));
    return;
  }
  if (Mn == "s_waitcnt_vscnt") {
    D.add("vscnt", AttrValue::integer(P.integer(1).value_or(-1)));
    return;
  }
  // gfx12: the reference's five counters, -1 where the instruction does
  // not wait (its `dscnt` field is never the one written).
  int64_t Imm = P.integer(0).value_or(-1);
  SmallVector<StringRef, 3> Counters = HardwareModel::waitCounters(Mn);
  SmallVector<int64_t, 2> Counts = {Imm};
  if (const PackedWaitLayout *L = HardwareModel::packedWaitLayout(Mn)) {
    Counts.clear();
    for (unsigned F = 0; F < L->NumFields; ++F)
      Counts.push_back(L->decode(Imm, F));
  }
  auto Count = [&](StringRef Field) -> int64_t {
    for (size_t K = 0; K < Counters.size() && K < Counts.size(); ++K)
      if (counterField(ModifierKind::SWaitCnt, Counters[K]) == Field)
        return Counts[K];
    return -1;
  };
  for (StringRef Field : {"vlcnt", "vscnt", "dlcnt", "dscnt", "kmcnt"})
    D.add(Field.str(), AttrValue::integer(Field == "dscnt" ? -1 : Count(Field)));
}

/// `VALU_DEP_2` -> ("VALU", 2); `NO_DEP` -> ("NO_DEP", 0).
std::pair<std::string, int64_t> aluDependency(StringRef Dep) {
  auto [Kind, N] = Dep.rsplit('_');
  int64_t Distance;
  if (N.getAsInteger(10, Distance))
    return {Dep.str(), 0};
  if (Kind == "VALU_DEP")
    return {"VALU", Distance};
  if (Kind == "TRANS32_DEP")
    return {"TRANS", Distance};
  if (Kind == "SALU_CYCLE")
    return {"SALU", Distance};
  return {Kind.str(), Distance};
}

void deriveDelayAlu(const Printed &P, AttrDict &D) {
  auto [Type0, Dist0] = aluDependency(P.call("instid0").value_or("NO_DEP"));
  D.add("instid0Type", AttrValue::string(Type0));
  D.add("instid0Distance", AttrValue::integer(Dist0));
  std::optional<StringRef> Id1 = P.call("instid1");
  if (!Id1)
    return;
  StringRef Skip = P.call("instskip").value_or("SAME");
  int64_t SkipN = Skip == "SAME" ? 0 : Skip == "NEXT" ? 1 : toInt(Skip.drop_front(5), 0) + 1;
  auto [Type1, Dist1] = aluDependency(*Id1);
  D.add("instSkip", AttrValue::integer(SkipN));
  D.add("instid1Type", AttrValue::string(Type1));
  D.add("instid1Distance", AttrValue::integer(Dist1));
}

/// `s_wait_alu` / `s_waitcnt_depctr`: a field at its maximum waits for
/// nothing and is left out; the layout is the hardware model's.
void deriveWaitAlu(const Printed &P, AttrDict &D, ArrayRef<DepCtrField> Layout) {
  std::optional<int64_t> Raw = P.integer(0);
  for (const DepCtrField &F : Layout) {
    std::optional<int64_t> V;
    if (Raw) {
      if (F.decode(uint32_t(*Raw)) != F.max())
        V = F.decode(uint32_t(*Raw));
    } else if (std::optional<StringRef> S = P.call(("depctr_" + F.Name).str())) {
      V = toInt(*S, F.max());
    }
    if (V)
      D.add(F.Name.str(), AttrValue::integer(*V));
  }
}

/// DPP16 control as the hardware encodes it (9 bits).
int64_t dppControl(const Printed &P) {
  if (std::optional<StringRef> Q = P.after("quad_perm:")) {
    SmallVector<StringRef, 4> Lanes;
    Q->trim("[]").split(Lanes, ',');
    int64_t C = 0;
    for (size_t K = 0; K < Lanes.size() && K < 4; ++K)
      C |= toInt(Lanes[K].trim(), 0) << (2 * K);
    return C;
  }
  static const std::pair<StringRef, int64_t> Shifts[] = {
      {"row_shl:", 0x100}, {"row_shr:", 0x110}, {"row_ror:", 0x120}, {"row_share:", 0x150},
      {"row_xmask:", 0x160}, {"row_newbcast:", 0x150}};
  for (auto [Prefix, Base] : Shifts)
    if (std::optional<StringRef> N = P.after(Prefix))
      return Base + toInt(*N, 0);
  static const std::pair<StringRef, int64_t> Fixed[] = {
      {"wave_shl:1", 0x130}, {"wave_rol:1", 0x134}, {"wave_shr:1", 0x138},
      {"wave_ror:1", 0x13c}, {"row_mirror", 0x140}, {"row_half_mirror", 0x141},
      {"row_bcast:15", 0x142}, {"row_bcast:31", 0x143}};
  for (auto [Token, Code] : Fixed)
    if (P.has(Token))
      return Code;
  return 0xffff;
}

void deriveDpp(const Printed &P, AttrDict &D) {
  if (std::optional<StringRef> L = P.after("dpp8:")) {
    D.add("isDPP8", AttrValue::boolean(true));
    D.add("dpp8", integerList(*L));
  } else {
    D.add("dppCtrl", AttrValue::integer(dppControl(P)));
    D.add("rowMask", AttrValue::integer(toInt(P.after("row_mask:"), 0xf)));
    D.add("bankMask", AttrValue::integer(toInt(P.after("bank_mask:"), 0xf)));
  }
  D.add("boundCtrl", AttrValue::integer(toInt(P.after("bound_ctrl:"), 0)));
  D.add("fi", AttrValue::integer(toInt(P.after("fi:"), 0)));
}

/// SDWA selects as the hardware numbers them.
int64_t sdwaSelect(std::optional<StringRef> S) {
  return StringSwitch<int64_t>(S.value_or("DWORD"))
      .Case("BYTE_0", 0).Case("BYTE_1", 1).Case("BYTE_2", 2).Case("BYTE_3", 3)
      .Case("WORD_0", 4).Case("WORD_1", 5).Default(6);
}

void deriveSdwa(const Printed &P, AttrDict &D) {
  D.add("dst_sel", AttrValue::integer(sdwaSelect(P.after("dst_sel:"))));
  D.add("dst_unused", AttrValue::integer(StringSwitch<int64_t>(P.after("dst_unused:").value_or(""))
                                             .Case("UNUSED_SEXT", 1)
                                             .Case("UNUSED_PRESERVE", 2)
                                             .Default(0)));
  D.add("src0_sel", AttrValue::integer(sdwaSelect(P.after("src0_sel:"))));
  D.add("src1_sel", AttrValue::integer(sdwaSelect(P.after("src1_sel:"))));
}

void deriveVop3(const Instruction &I, const Printed &P, const TargetInfo &TI, AttrDict &D) {
  SmallVector<const Operand *, 4> Srcs = sources(I, TI);
  for (auto [Prefix, Test] : {std::pair{"neg_src", &Operand::isNegated},
                              std::pair{"abs_src", &Operand::hasAbs}})
    for (size_t S = 0; S < Srcs.size() && S < 3; ++S)
      if ((Srcs[S]->*Test)())
        D.add(Prefix + std::to_string(S), AttrValue::boolean(true));
  if (P.has("clamp"))
    D.add("clamp", AttrValue::boolean(true));
  int64_t Omod = P.has("mul:2") ? 1 : P.has("mul:4") ? 2 : P.has("div:2") ? 3 : 0;
  if (Omod)
    D.add("omod", AttrValue::integer(Omod));
}

int64_t halfCode(const Operand &Op) {
  return Op.half() == RegHalf::Low ? 0 : Op.half() == RegHalf::High ? 1 : -1;
}

void deriveTrue16(const Instruction &I, const TargetInfo &TI, AttrDict &D) {
  SmallVector<const Operand *, 4> Srcs = sources(I, TI);
  const Operand *Dst = nullptr;
  for (const Operand &Op : I.operands())
    if (!Op.isModifier()) {
      Dst = Srcs.empty() || &Op != Srcs.front() ? &Op : nullptr;
      break;
    }
  D.add("dst0", AttrValue::integer(Dst ? halfCode(*Dst) : -1));
  D.add("dst1", AttrValue::integer(-1));
  for (size_t S = 0; S < Srcs.size() && S < 3; ++S)
    D.add("src" + std::to_string(S), AttrValue::integer(halfCode(*Srcs[S])));
}

/// `mod.exec` / `mod.vcc`: the instruction names the register (or a half)
/// as an operand; setHi for the high half.
std::optional<AttrDict> deriveSetHi(const Instruction &I, StringRef Reg) {
  for (const Operand &Op : I.operands()) {
    StringRef S = Op.spelling();
    if (S == Reg || S == (Reg + "_lo").str() || S == (Reg + "_hi").str()) {
      AttrDict D;
      D.add("setHi", AttrValue::boolean(S.ends_with("_hi")));
      return D;
    }
  }
  return std::nullopt;
}

void deriveMfma(const Printed &P, AttrDict &D) {
  D.add("reuseA", AttrValue::boolean(P.has("matrix_a_reuse")));
  D.add("reuseB", AttrValue::boolean(P.has("matrix_b_reuse")));
  std::optional<StringRef> Lo = P.after("neg_lo:"), Hi = P.after("neg_hi:");
  if (!Lo && !Hi)
    return;
  AttrValue LoList = integerList(Lo.value_or(Hi.value_or("")));
  size_t N = LoList.asList().size();
  if (!Lo)
    LoList = AttrValue::list(std::vector<AttrValue>(N, AttrValue::integer(0)));
  D.add("negLo", LoList);
  D.add("negHi", Hi ? integerList(*Hi)
                    : AttrValue::list(std::vector<AttrValue>(N, AttrValue::integer(0))));
  D.add("numNegSrcs", AttrValue::integer(int64_t(N)));
}

void deriveMatrixFmt(const Instruction &I, const Printed &P, AttrDict &D) {
  D.add("fmtA", AttrValue::string(P.after("matrix_a_fmt:").value_or("MATRIX_FMT_FP8").str()));
  D.add("fmtB", AttrValue::string(P.after("matrix_b_fmt:").value_or("MATRIX_FMT_FP8").str()));
  if (!I.mnemonic().contains("_scale"))
    return;
  D.add("scaleFmtA", AttrValue::string(
                         P.after("matrix_a_scale_fmt:").value_or("MATRIX_SCALE_FMT_E8").str()));
  D.add("scaleFmtB", AttrValue::string(
                         P.after("matrix_b_scale_fmt:").value_or("MATRIX_SCALE_FMT_E8").str()));
  for (auto [Field, Prefix] : {std::pair{"scaleSelA", "matrix_a_scale:"},
                               std::pair{"scaleSelB", "matrix_b_scale:"}})
    if (std::optional<StringRef> Sel = P.after(Prefix)) {
      int64_t N = toInt(Sel->drop_while([](char C) { return !isDigit(C); }), 0);
      if (N)
        D.add(Field, AttrValue::integer(N));
    }
}

/// A stated value that the derived dictionary leaves out: the field's
/// neutral value (counts wait for nothing, flags are off).
AttrValue absentValue(ModifierKind K, FieldType T) {
  switch (T) {
  case FieldType::Int:
    return AttrValue::integer(K == ModifierKind::Ds || K == ModifierKind::Vop3 ||
                                      K == ModifierKind::MatrixFmt || K == ModifierKind::Mfma
                                  ? 0
                                  : -1);
  case FieldType::Bool: return AttrValue::boolean(false);
  case FieldType::String: return AttrValue::string("");
  case FieldType::IntList: return AttrValue::list({});
  }
  return AttrValue::integer(0);
}

bool sameValue(const AttrValue &A, const AttrValue &B, FieldType T) {
  switch (T) {
  case FieldType::Int:
  case FieldType::Bool: return A.asInteger() == B.asInteger();
  case FieldType::String: return A.asString() == B.asString();
  case FieldType::IntList:
    return A.asList().size() == B.asList().size() &&
           all_of(zip(A.asList(), B.asList()), [](auto P) {
             return std::get<0>(P).asInteger() == std::get<1>(P).asInteger();
           });
  }
  return false;
}

std::string render(const AttrValue &V) {
  std::string S;
  raw_string_ostream OS(S);
  V.print(OS);
  return S;
}

} // namespace

std::optional<AttrDict> deriveModifier(ModifierKind K, const Instruction &I,
                                       const TargetInfo &TI) {
  if (I.kind() != InstKind::Machine || I.mcInsts().empty())
    return std::nullopt;
  Printed P = printed(I, TI);
  StringRef Mn = I.mnemonic(), Class = classOf(I, TI);
  StringRef Printed = P.Mnemonic;
  AttrDict D;
  switch (K) {
  case ModifierKind::Ds:
    if (Class != "LDS")
      return std::nullopt;
    deriveDs(I, P, D);
    return D;
  case ModifierKind::Flat:
    if (!Mn.starts_with("flat_"))
      return std::nullopt;
    D.add("offset12", AttrValue::integer(toInt(P.after("offset:"), 0)));
    addFlags(P, D, {"glc", "slc", "lds"});
    return D;
  case ModifierKind::Global:
    if (!Mn.starts_with("global_") || !isMemoryAccess(I))
      return std::nullopt;
    D.add("offset", AttrValue::integer(toInt(P.after("offset:"), 0)));
    addIfPresent(P, D, "th", "th:");
    addIfPresent(P, D, "scope", "scope:");
    return D;
  case ModifierKind::Mubuf:
    if (!Mn.starts_with("buffer_") && !Mn.starts_with("tbuffer_"))
      return std::nullopt;
    D.add("offen", AttrValue::boolean(P.has("offen")));
    D.add("offset12", AttrValue::integer(toInt(P.after("offset:"), 0)));
    addFlags(P, D, {"glc", "slc", "nt", "lds"});
    addIfPresent(P, D, "scope", "scope:");
    addIfPresent(P, D, "th", "th:");
    if (P.has("nv"))
      D.add("nv", AttrValue::string("nv"));
    return D;
  case ModifierKind::CacheScope:
    // Cache write-backs and invalidates: no address, a scope.
    if (isMemoryAccess(I) || Class != "VMEM")
      return std::nullopt;
    addIfPresent(P, D, "scope", "scope:");
    return D;
  case ModifierKind::Smem:
    if (Class != "SMEM")
      return std::nullopt;
    D.add("offset", AttrValue::integer(P.integer(2).value_or(toInt(P.after("offset:"), 0))));
    addFlags(P, D, {"glc", "nv"});
    return D;
  case ModifierKind::Sdwa:
    if (!Printed.ends_with("_sdwa"))
      return std::nullopt;
    deriveSdwa(P, D);
    return D;
  case ModifierKind::Dpp:
    if (!Printed.contains("_dpp"))
      return std::nullopt;
    deriveDpp(P, D);
    return D;
  case ModifierKind::Vop3:
    if (!Mn.starts_with("v_") || Printed.contains("_dpp") || Printed.ends_with("_sdwa"))
      return std::nullopt;
    deriveVop3(I, P, TI, D);
    return D;
  case ModifierKind::Vop3p:
    if (!P.after("op_sel_hi:") && !P.after("op_sel:") && !P.after("byte_sel:") &&
        !Mn.starts_with("v_pk_"))
      return std::nullopt;
    for (auto [Field, Prefix] : {std::pair{"op_sel", "op_sel:"},
                                 std::pair{"op_sel_hi", "op_sel_hi:"},
                                 std::pair{"byte_sel", "byte_sel:"}})
      D.add(Field, integerList(P.after(Prefix).value_or("[]")));
    return D;
  case ModifierKind::True16:
    if (none_of(I.operands(), [](const Operand &Op) { return Op.half() != RegHalf::Full; }))
      return std::nullopt;
    deriveTrue16(I, TI, D);
    return D;
  case ModifierKind::Exec:
    return deriveSetHi(I, "exec");
  case ModifierKind::Vcc:
    return deriveSetHi(I, "vcc");
  case ModifierKind::SWaitCnt:
    if (Mn != "s_waitcnt" && Mn != "s_waitcnt_vscnt" &&
        !(Mn.starts_with("s_wait_") &&
          (Mn.contains("loadcnt") || Mn.contains("dscnt") || Mn == "s_wait_kmcnt")))
      return std::nullopt;
    deriveSWaitCnt(I, P, D);
    return D;
  case ModifierKind::SWaitTensorCnt:
  case ModifierKind::SWaitAsyncCnt:
  case ModifierKind::SWaitStoreCnt: {
    StringRef Counter = ownCounter(K);
    if (Mn != ("s_wait_" + Counter).str())
      return std::nullopt;
    D.add(counterField(K, Counter).str(), AttrValue::integer(P.integer(0).value_or(-1)));
    return D;
  }
  case ModifierKind::DelayAlu:
    if (HardwareModel::roleOf(Mn) != InstRole::DelayAlu)
      return std::nullopt;
    deriveDelayAlu(P, D);
    return D;
  case ModifierKind::WaitAlu:
    if (HardwareModel::roleOf(Mn) != InstRole::DepCtrWait)
      return std::nullopt;
    deriveWaitAlu(P, D, TI.hardware().depCtrFields());
    return D;
  case ModifierKind::Mfma:
    if (Class != "MFMA" && Class != "WMMA")
      return std::nullopt;
    deriveMfma(P, D);
    return D;
  case ModifierKind::MatrixFmt:
    if ((Class != "MFMA" && Class != "WMMA") || !Mn.contains("f8f6f4"))
      return std::nullopt;
    deriveMatrixFmt(I, P, D);
    return D;
  default:
    return std::nullopt;
  }
}

namespace {

/// The token that spells \p Field = \p Value among an instruction's
/// operands (empty: the default, spelled by leaving it out), and the prefix
/// or word every spelling of the field starts with.
struct FieldSpelling {
  std::string Prefix;
  std::string Token;
};

std::optional<FieldSpelling> spellingOf(ModifierKind K, StringRef Field,
                                        const AttrValue &Value) {
  auto Flag = [&](StringRef Word) -> FieldSpelling {
    return {Word.str(), Value.asBool() ? Word.str() : ""};
  };
  auto Keyed = [&](StringRef Prefix, bool OmitZero) -> FieldSpelling {
    std::string V = Value.kind() == AttrValue::Kind::Integer
                        ? std::to_string(Value.asInteger())
                        : Value.asString().str();
    bool Default = V.empty() || (OmitZero && V == "0");
    return {Prefix.str(), Default ? "" : (Prefix + V).str()};
  };
  switch (K) {
  case ModifierKind::Ds:
    if (Field == "gds")
      return Flag("gds");
    if (Field == "offset" || Field == "offset0" || Field == "offset1")
      return Keyed((Field + ":").str(), true);
    return std::nullopt;
  case ModifierKind::Flat:
  case ModifierKind::Global:
  case ModifierKind::Mubuf:
  case ModifierKind::Smem:
  case ModifierKind::CacheScope:
    if (Field == "offset" || Field == "offset12")
      return Keyed("offset:", true);
    if (Field == "th" || Field == "scope")
      return Keyed((Field + ":").str(), false);
    if (Field == "nv" && Value.kind() == AttrValue::Kind::String)
      return FieldSpelling{"nv", Value.asString() == "nv" ? "nv" : ""};
    if (is_contained({"glc", "slc", "nt", "lds", "offen", "nv"}, Field))
      return Flag(Field);
    return std::nullopt;
  case ModifierKind::Vop3:
    if (Field == "clamp")
      return Flag("clamp");
    return std::nullopt;
  case ModifierKind::Mfma:
    if (Field == "reuseA")
      return Flag("matrix_a_reuse");
    if (Field == "reuseB")
      return Flag("matrix_b_reuse");
    return std::nullopt;
  case ModifierKind::MatrixFmt: {
    // MC leaves out the formats FP8 and E8.
    StringRef Prefix = StringSwitch<StringRef>(Field)
                           .Case("fmtA", "matrix_a_fmt:")
                           .Case("fmtB", "matrix_b_fmt:")
                           .Case("scaleFmtA", "matrix_a_scale_fmt:")
                           .Case("scaleFmtB", "matrix_b_scale_fmt:")
                           .Default("");
    if (Prefix.empty() || Value.kind() != AttrValue::Kind::String)
      return std::nullopt;
    StringRef V = Value.asString();
    bool Default = V.empty() || V == "MATRIX_FMT_FP8" || V == "MATRIX_SCALE_FMT_E8";
    return FieldSpelling{Prefix.str(), Default ? "" : (Prefix + V).str()};
  }
  case ModifierKind::Vop3p: {
    // op_sel and byte_sel are left out when every bit is 0 (op_sel_hi's
    // default depends on the instruction: not set here).
    if ((Field != "op_sel" && Field != "byte_sel") || Value.kind() != AttrValue::Kind::List)
      return std::nullopt;
    SmallVector<std::string, 4> Bits;
    for (const AttrValue &B : Value.asList())
      Bits.push_back(std::to_string(B.asInteger()));
    bool Default = none_of(Value.asList(), [](const AttrValue &B) { return B.asInteger(); });
    std::string Prefix = (Field + ":").str();
    return FieldSpelling{Prefix, Default ? "" : Prefix + "[" + join(Bits, ",") + "]"};
  }
  case ModifierKind::SWaitCnt:
    if (is_contained({"vmcnt", "expcnt", "lgkmcnt"}, Field))
      return FieldSpelling{(Field + "(").str(),
                           Value.asInteger() < 0
                               ? ""
                               : (Field + "(" + Twine(Value.asInteger()) + ")").str()};
    return std::nullopt;
  case ModifierKind::WaitAlu:
    return FieldSpelling{("depctr_" + Field + "(").str(),
                         Value.asInteger() < 0
                             ? ""
                             : ("depctr_" + Field + "(" + Twine(Value.asInteger()) + ")").str()};
  default:
    return std::nullopt;
  }
}

/// The counter a single-counter wait immediate stands for.
std::optional<StringRef> immediateField(ModifierKind K, StringRef Mnemonic) {
  if (K != ModifierKind::SWaitCnt && K != ModifierKind::SWaitTensorCnt &&
      K != ModifierKind::SWaitAsyncCnt && K != ModifierKind::SWaitStoreCnt)
    return std::nullopt;
  SmallVector<StringRef, 3> C = HardwareModel::waitCounters(Mnemonic);
  if (C.size() != 1 || counterField(K, C[0]).empty())
    return std::nullopt;
  return counterField(K, C[0]);
}

/// Sets \p Ops with \p New among their trailing modifiers, where MC takes
/// it: some assemblers want `offset:` before the cache bits
/// (`buffer_load_dword ... offen offset:4 glc` on gfx9), so each place from
/// the end back to the first modifier is tried; the error is the one for
/// the end, the place MC's printer would use for a field it adds last.
Error insertModifier(Module &M, Instruction &I, std::vector<Operand> Ops, Operand New) {
  InstBuilder B(M);
  size_t At = Ops.size();
  std::vector<Operand> Tried = Ops;
  Tried.push_back(New);
  Error AtEnd = B.setOperands(I, std::move(Tried));
  if (!AtEnd)
    return AtEnd;
  while (At > 0 && Ops[At - 1].kind() == OperandKind::Modifier) {
    --At;
    Tried = Ops;
    Tried.insert(Tried.begin() + At, New);
    Error E = B.setOperands(I, std::move(Tried));
    if (!E) {
      consumeError(std::move(AtEnd));
      return Error::success();
    }
    consumeError(std::move(E));
  }
  return AtEnd;
}

} // namespace

Error setDerivedField(Module &M, Instruction &I, ModifierKind K, StringRef Field,
                      const AttrValue &Value) {
  const TargetInfo &TI = M.target();
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), "cannot set mod." +
                                                           Modifier::keyOf(K) + "." + Field +
                                                           " of " + I.mnemonic() + ": " + Why);
  };
  if (!deriveModifier(K, I, TI))
    return Fail("the modifier does not describe the instruction");
  AttrDict Check;
  Check.add(Field.str(), Value);
  if (Error E = checkDerivedFields(K, Check))
    return Fail(toString(std::move(E)));
  std::vector<Operand> Ops;
  if (std::optional<StringRef> Imm = immediateField(K, I.mnemonic()); Imm && *Imm == Field) {
    Ops = {Operand(OperandKind::Immediate, std::to_string(Value.asInteger()))};
  } else if (K == ModifierKind::Smem && Field == "offset" && printed(I, TI).integer(2) &&
             I.operands().size() > 2) {
    // An immediate offset is the third operand (`s_load_b32 s0, s[0:1], 0x10`).
    Ops = I.operands();
    Ops[2] = Operand(OperandKind::Immediate, std::to_string(Value.asInteger()));
  } else {
    std::optional<FieldSpelling> S = spellingOf(K, Field, Value);
    if (!S)
      return Fail("the field is not editable");
    // Waits are edited in the printer's spelling, their fields named (a
    // packed number would hide them); other instructions keep their own.
    bool Named = K == ModifierKind::SWaitCnt || K == ModifierKind::WaitAlu;
    auto NoSymbols = [](StringRef) -> std::optional<int64_t> { return std::nullopt; };
    if (Named) {
      for (const std::string &T : printed(I, TI).Tokens)
        if (!StringRef(T).ends_with(")"))
          return Fail("MC prints its fields as a number ('" + T + "')");
        else // space-separated, as MC prints them
          Ops.push_back(Ops.empty() ? classifyOperand(T, TI, NoSymbols)
                                    : Operand(OperandKind::Modifier, T));
    } else {
      Ops = I.operands();
    }
    // The field's spelling (a word such as `gds`, or a prefix such as
    // `offset:` or `vmcnt(`) is replaced where it stands, or goes; a new one
    // follows the operands as a modifier.
    bool IsPrefix = StringRef(S->Prefix).ends_with(":") || StringRef(S->Prefix).ends_with("(");
    auto Spells = [&](const Operand &Op) {
      return IsPrefix ? Op.spelling().starts_with(S->Prefix) : Op.spelling() == S->Prefix;
    };
    auto At = find_if(Ops, Spells);
    bool Replaced = At != Ops.end() && !S->Token.empty();
    if (Replaced) {
      *At = Operand(At->kind(), S->Token);
      ++At;
    }
    Ops.erase(std::remove_if(At, Ops.end(), Spells), Ops.end());
    if (Named && Ops.empty() && S->Token.empty())
      return Fail("a wait for nothing has no spelling; remove the instruction instead");
    if (!Replaced && !S->Token.empty())
      return insertModifier(M, I, std::move(Ops), Operand(OperandKind::Modifier, S->Token));
  }
  InstBuilder B(M);
  return B.setOperands(I, std::move(Ops));
}

namespace {

/// Whether \p Actual, the value MC gives \p Field, is the field's default:
/// the operands leave it out (no `offset:`, no `clamp`, a counter not waited
/// for), so a modifier that states the field is the only one to say it.
bool leftAtDefault(ModifierKind K, StringRef Field, FieldType T, const AttrValue *Actual) {
  if (!Actual || sameValue(*Actual, absentValue(K, T), T))
    return true;
  std::optional<FieldSpelling> S = spellingOf(K, Field, *Actual);
  return S && S->Token.empty();
}

} // namespace

Error applyDerivedModifier(Module &M, Instruction &I, const DerivedModifier &Stated) {
  const TargetInfo &TI = M.target();
  for (const auto &[Name, Value] : Stated.Stated.entries()) {
    if (Name == "hasInstId1") // implied by the second dependency's fields
      continue;
    std::optional<AttrDict> Derived = deriveModifier(Stated.kind(), I, TI);
    if (!Derived)
      return createStringError(inconvertibleErrorCode(),
                               "mod." + Stated.key() + " does not describe " + I.mnemonic());
    const DerivedField &F = *find_if(derivedFields(Stated.kind()),
                                     [&](const DerivedField &D) { return D.Name == Name; });
    const AttrValue *Actual = Derived->find(Name);
    AttrValue Absent = absentValue(Stated.kind(), F.Type);
    if (sameValue(Value, Actual ? *Actual : Absent, F.Type))
      continue;
    bool Editable = immediateField(Stated.kind(), I.mnemonic()) == StringRef(Name) ||
                    spellingOf(Stated.kind(), Name, Value);
    if (Editable && leftAtDefault(Stated.kind(), Name, F.Type, Actual)) {
      if (Error E = setDerivedField(M, I, Stated.kind(), Name, Value))
        return E;
      continue;
    }
    return createStringError(inconvertibleErrorCode(),
                             "mod." + Stated.key() + ": " + Name + " = " + render(Value) +
                                 " contradicts the instruction, where it is " +
                                 render(Actual ? *Actual : Absent));
  }
  return Error::success();
}

namespace {

int64_t statedInt(const AttrDict &Stated, StringRef Field, int64_t Absent) {
  const AttrValue *V = Stated.find(Field);
  return V && V->kind() == AttrValue::Kind::Integer ? V->asInteger() : Absent;
}

/// ("VALU", 2) -> `VALU_DEP_2`, the inverse of aluDependency.
std::string aluDependencyName(StringRef Type, int64_t Distance) {
  if (Type == "NO_DEP")
    return "NO_DEP";
  StringRef Kind = Type == "VALU" ? "VALU_DEP" : Type == "TRANS" ? "TRANS32_DEP"
                   : Type == "SALU"                              ? "SALU_CYCLE"
                                                                 : Type;
  return (Kind + "_" + Twine(Distance)).str();
}

std::optional<std::string> delayAluOperands(const AttrDict &Stated) {
  const AttrValue *Type0 = Stated.find("instid0Type");
  if (!Type0)
    return std::nullopt;
  std::string Text = "instid0(" +
                     aluDependencyName(Type0->asString(), statedInt(Stated, "instid0Distance", 1)) +
                     ")";
  if (const AttrValue *Type1 = Stated.find("instid1Type")) {
    int64_t Skip = statedInt(Stated, "instSkip", 0);
    std::string SkipName = Skip == 0 ? "SAME" : Skip == 1 ? "NEXT" : "SKIP_" + std::to_string(Skip - 1);
    Text += " | instskip(" + SkipName + ") | instid1(" +
            aluDependencyName(Type1->asString(), statedInt(Stated, "instid1Distance", 1)) + ")";
  }
  return Text;
}

} // namespace

std::optional<std::string> operandsFromModifier(ModifierKind K, StringRef Mnemonic,
                                                const AttrDict &Stated) {
  switch (K) {
  case ModifierKind::DelayAlu:
    return HardwareModel::roleOf(Mnemonic) == InstRole::DelayAlu ? delayAluOperands(Stated)
                                                                  : std::nullopt;
  case ModifierKind::WaitAlu: {
    if (HardwareModel::roleOf(Mnemonic) != InstRole::DepCtrWait)
      return std::nullopt;
    SmallVector<std::string, 4> Fields;
    for (const DepCtrField &F : HardwareModel::allDepCtrFields())
      if (int64_t V = statedInt(Stated, F.Name, -1); V >= 0)
        Fields.push_back(("depctr_" + F.Name + "(" + Twine(V) + ")").str());
    return Fields.empty() ? std::nullopt : std::optional(join(Fields, " "));
  }
  case ModifierKind::SWaitCnt:
  case ModifierKind::SWaitTensorCnt:
  case ModifierKind::SWaitAsyncCnt:
  case ModifierKind::SWaitStoreCnt: {
    if (Mnemonic == "s_waitcnt") {
      SmallVector<std::string, 3> Fields;
      for (StringRef C : {"vmcnt", "expcnt", "lgkmcnt"})
        if (int64_t V = statedInt(Stated, C, -1); V >= 0)
          Fields.push_back((C + "(" + Twine(V) + ")").str());
      return Fields.empty() ? std::nullopt : std::optional(join(Fields, " "));
    }
    // The gfx12 waits: each counter by the reference's field for it.
    SmallVector<StringRef, 3> Counters = HardwareModel::waitCounters(Mnemonic);
    auto FieldOf = [&](StringRef Counter) { return counterField(K, Counter); };
    if (Counters.size() == 1 && !FieldOf(Counters[0]).empty())
      if (int64_t V = statedInt(Stated, FieldOf(Counters[0]), -1); V >= 0)
        return std::to_string(V);
    // A combined wait: a field not stated waits for nothing.
    const PackedWaitLayout *L = HardwareModel::packedWaitLayout(Mnemonic);
    if (!L || Counters.size() != L->NumFields)
      return std::nullopt;
    int64_t Imm = 0;
    bool AnyStated = false;
    for (unsigned F = 0; F < L->NumFields; ++F) {
      int64_t V = statedInt(Stated, FieldOf(Counters[F]), -1);
      AnyStated |= V >= 0;
      Imm |= (V < 0 ? L->fieldMax() : V) << L->Offsets[F];
    }
    return AnyStated ? std::optional(std::to_string(Imm)) : std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

Expected<std::pair<ModifierKind, AttrDict>> resolveGenericWait(StringRef Mnemonic,
                                                                const AttrDict &Stated) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "mod." + GenericWaitKey + " of " + Mnemonic + ": " + Why);
  };
  SmallVector<StringRef, 3> Counters = HardwareModel::waitCounters(Mnemonic);
  if (Counters.empty())
    return Fail("the instruction waits on no counter");
  // The single-counter waits with a modifier of their own; every other
  // wait is described by mod.swaitcnt.
  ModifierKind K = ModifierKind::SWaitCnt;
  for (ModifierKind Own : {ModifierKind::SWaitTensorCnt, ModifierKind::SWaitAsyncCnt,
                           ModifierKind::SWaitStoreCnt})
    if (Mnemonic == ("s_wait_" + ownCounter(Own)).str())
      K = Own;
  // A generic field is the reference's name of the counter (`vlcnt`), or
  // the counter's own name where it has none (`vmcnt` of `s_waitcnt`).
  auto GenericName = [](StringRef Counter) {
    StringRef Name = counterField(ModifierKind::SWaitCnt, Counter);
    return Name.empty() ? Counter : Name;
  };
  AttrDict Fields;
  for (const auto &[Name, Value] : Stated.entries()) {
    const StringRef *Counter =
        find_if(Counters, [&](StringRef C) { return GenericName(C) == Name; });
    if (Counter == Counters.end()) {
      SmallVector<std::string, 3> Waited;
      for (StringRef C : Counters)
        Waited.push_back(("'" + GenericName(C) + "'").str());
      return Fail("'" + Name + "' names a counter the instruction does not wait on (it waits on " +
                  join(Waited, ", ") + ")");
    }
    if (Value.kind() != AttrValue::Kind::Integer)
      return Fail("attribute '" + Name + "' must be an integer");
    StringRef Field = counterField(K, *Counter);
    Fields.add((Field.empty() ? *Counter : Field).str(), Value);
  }
  if (Error E = checkDerivedFields(K, Fields))
    return Fail(toString(std::move(E)));
  return std::pair{K, std::move(Fields)};
}

} // namespace stinkytofu

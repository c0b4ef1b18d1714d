//===- InstructionEffects.cpp - What reordering an instruction may change -===//
#include "stinkytofu/analysis/InstructionEffects.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/PrintedInstruction.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Modifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrInfo.h"

using namespace llvm;

namespace stinkytofu {

StringRef memorySpaceName(MemorySpace S) {
  switch (S) {
  case MemorySpace::Global:
    return "global";
  case MemorySpace::Lds:
    return "LDS";
  case MemorySpace::Gds:
    return "GDS";
  }
  return "?";
}

bool InstructionEffects::accessesMemory() const {
  return any_of(Memory, [](const SpaceAccess &A) { return A.any(); });
}

bool memoryConflict(const InstructionEffects &A, const InstructionEffects &B, MemorySpace S,
                    bool SameAddressValues) {
  const SpaceAccess &X = A.space(S), &Y = B.space(S);
  if (!X.any() || !Y.any())
    return false;
  if (X.Ordered || Y.Ordered)
    return true;
  if (!X.Writes && !Y.Writes)
    return false;
  if (S == MemorySpace::Lds && !A.LdsTokens.empty() && !B.LdsTokens.empty() &&
      none_of(A.LdsTokens, [&](int64_t T) { return is_contained(B.LdsTokens, T); }))
    return false;
  if (SameAddressValues && A.Location && B.Location && A.Location->Key == B.Location->Key &&
      (A.Location->End <= B.Location->Begin || B.Location->End <= A.Location->Begin))
    return false;
  return true;
}

namespace {

uint64_t flagMask(std::initializer_list<StringRef> Names) {
  uint64_t Mask = 0;
  for (StringRef N : Names)
    if (std::optional<unsigned> Bit = HardwareModel::tsFlagBit(N))
      Mask |= uint64_t(1) << *Bit;
  return Mask;
}

/// How many 32-bit registers `s[0:3]`, `v1`, `a[2:3]` names; nullopt for
/// anything else.
std::optional<unsigned> registerCount(StringRef Op) {
  if (Op.size() < 2 || !is_contained(StringRef("sva"), Op.front()))
    return std::nullopt;
  StringRef Rest = Op.drop_front();
  unsigned Lo, Hi;
  if (!Rest.consume_front("["))
    return Rest.getAsInteger(10, Lo) ? std::nullopt : std::optional<unsigned>(1);
  auto [A, B] = Rest.take_until([](char C) { return C == ']'; }).split(':');
  if (A.getAsInteger(10, Lo) || B.getAsInteger(10, Hi) || Hi < Lo)
    return std::nullopt;
  return Hi - Lo + 1;
}

/// \p Mnemonic in lower case, as the hardware model's tables spell it: in
/// \p Buffer only when it has an upper-case letter (a macro's name; an
/// instruction's mnemonic is lower case already).
StringRef lowerCase(StringRef Mnemonic, SmallVectorImpl<char> &Buffer) {
  if (none_of(Mnemonic, isUpper))
    return Mnemonic;
  Buffer.clear();
  for (char C : Mnemonic)
    Buffer.push_back(toLower(C));
  return StringRef(Buffer.data(), Buffer.size());
}

/// Whether \p I's role is Clause, by comparing its mnemonic with the few of
/// that role: asked of up to 64 instructions before each memory access.
bool isClause(const Instruction &I) {
  static const SmallVector<StringRef, 4> Clauses = HardwareModel::mnemonicsOf(InstRole::Clause);
  return any_of(Clauses, [&](StringRef C) { return I.mnemonic().equals_insensitive(C); });
}

/// Whether \p I is the last instruction an `s_clause` before it in its block
/// covers (the clause's immediate + 1 instructions; its low 6 bits, as MC
/// encodes the length). That member is a fence like the s_clause: the
/// members between the two may reorder among themselves, but no other
/// instruction moves into the clause and no member out of it (a clause may
/// not mix instruction types on gfx11+, and the s_clause counts what
/// follows it). A clause ends with a memory access.
bool endsClause(const Instruction &I) {
  constexpr unsigned MaxClause = 64;
  if (!I.parent() || !(I.facts().Flags & (IF_MayLoad | IF_MayStore)))
    return false;
  const BasicBlock &BB = *I.parent();
  unsigned Between = 0;
  for (auto It = I.getIterator(); It != BB.instructions().begin() && Between < MaxClause;
       ++Between) {
    const Instruction &P = *--It;
    if (P.facts().Flags & (IF_MayLoad | IF_MayStore))
      continue;
    if (!isClause(P))
      continue;
    if (P.mcInsts().size() != 1 || !P.mcInsts()[0].getNumOperands() ||
        !P.mcInsts()[0].getOperand(0).isImm())
      return false;
    return Between == unsigned(P.mcInsts()[0].getOperand(0).getImm() & (MaxClause - 1));
  }
  return false;
}

} // namespace

EffectModel::EffectModel(const TargetInfo &TI)
    : RU(TI), Counters(std::make_unique<CounterModel>(TI)) {
  SoppMask = flagMask({"SOPP"});
  SmrdMask = flagMask({"SMRD"});
  BufferMask = flagMask({"MUBUF", "MTBUF"});
  MemoryFormatMask = flagMask({"MUBUF", "MTBUF", "SMRD", "MIMG", "VIMAGE", "VSAMPLE", "EXP",
                               "FLAT", "DS", "LDSDIR"});
}
EffectModel::~EffectModel() = default;
EffectModel::EffectModel(EffectModel &&) = default;

bool isTokenBarrier(const Instruction &I) {
  return I.kind() == InstKind::Machine && I.getModifier<LdsDependenceData>() &&
         HardwareModel::roleOf(I.mnemonic().lower()) == InstRole::Barrier;
}

bool EffectModel::isFence(const Instruction &I) const {
  SmallString<32> Buffer;
  return isFence(I, lowerCase(I.mnemonic(), Buffer));
}

bool EffectModel::isFence(const Instruction &I, StringRef Mnemonic) const {
  // A macro may expand to anything the rules below look for by mnemonic.
  if (I.kind() != InstKind::Machine)
    return true;
  if (isTokenBarrier(I))
    return false;
  const InstrFacts &F = I.facts();
  if (F.Flags & (IF_Opaque | IF_Call | IF_Branch | IF_Terminator | IF_Return | IF_Barrier |
                 IF_ExprOperand) ||
      isControlTransfer(I))
    return true;
  switch (HardwareModel::roleOf(Mnemonic)) {
  case InstRole::Barrier:
  case InstRole::CacheInvalidate:
  case InstRole::HwRegWrite:
  case InstRole::ReturningMessage:
  case InstRole::Clause:
  case InstRole::DepCtrWait:
  case InstRole::ProgramCounterRead:
    return true;
  default:
    break;
  }
  if (!HardwareModel::waitCounters(Mnemonic).empty())
    return true;
  const MCInstrInfo &MII = RU.target().instrInfo();
  for (const MCInst &MI : I.mcInsts()) {
    const MCInstrDesc &D = MII.get(MI.getOpcode());
    if (D.TSFlags & SoppMask)
      return true;
    if ((D.TSFlags & MemoryFormatMask) && !D.mayLoad() && !D.mayStore())
      return true;
  }
  return false;
}

std::optional<MemoryLocation> EffectModel::uniformLocation(const Instruction &I) const {
  if (I.mcInsts().size() != 1)
    return std::nullopt;
  const TargetInfo &TI = RU.target();
  const MCInst &MI = I.mcInsts().front();
  const MCInstrDesc &D = TI.instrInfo().get(MI.getOpcode());
  const bool Smem = D.TSFlags & SmrdMask, Buffer = D.TSFlags & BufferMask;
  if ((!Smem && !Buffer) || (D.mayLoad() && D.mayStore()))
    return std::nullopt; // atomics and LDS DMA: no location
  // Every lane uses the same address when no VGPR other than a store's data
  // enters it: SMEM, and the buffer forms without vaddr.
  MemoryLocation L;
  unsigned VectorUses = 0;
  for (unsigned Op = D.getNumDefs(); Op < MI.getNumOperands(); ++Op) {
    const MCOperand &MO = MI.getOperand(Op);
    if (!MO.isReg() || !MO.getReg())
      continue;
    RegClass C = TI.classOf(TI.canonical(MO.getReg()));
    if (C == RegClass::VGPR || C == RegClass::AGPR)
      ++VectorUses;
    else
      append_range(L.AddressUnits, RU.units(MO.getReg()));
  }
  if (VectorUses > (D.mayStore() ? 1u : 0u))
    return std::nullopt;
  PrintedInstruction P(TI.printMC(MI));
  if (P.Operands.size() < 3)
    return std::nullopt;
  std::optional<unsigned> Regs = registerCount(P.Operands[0]);
  if (!Regs)
    return std::nullopt;
  int64_t Offset = P.field("offset").value_or(0);
  if (Smem) {
    // sdata, sbase, then an immediate offset or soffset.
    int64_t Imm;
    if (!P.Operands[2].getAsInteger(0, Imm))
      Offset = Imm;
    else if (!registerCount(P.Operands[2]))
      return std::nullopt;
    else
      L.Key = P.Operands[2].str();
    L.Key = (P.Operands[1] + "," + L.Key).str();
  } else {
    // vdata, off, srsrc, soffset.
    if (P.Operands.size() < 4 || P.Operands[1] != "off" || P.has("lds") ||
        P.has("idxen") || P.has("offen"))
      return std::nullopt;
    L.Key = (P.Operands[2] + "," + P.Operands[3]).str();
  }
  L.Begin = Offset;
  L.End = Offset + 4 * int64_t(*Regs);
  return L;
}

void EffectModel::addMemory(const Instruction &I, StringRef Mnemonic,
                            InstructionEffects &E) const {
  auto &Global = E.Memory[unsigned(MemorySpace::Global)];
  auto &Lds = E.Memory[unsigned(MemorySpace::Lds)];
  auto &Gds = E.Memory[unsigned(MemorySpace::Gds)];
  const MCInstrInfo &MII = RU.target().instrInfo();
  const uint32_t GlobalEvents =
      eventBit(WaitEvent::VmemLoad) | eventBit(WaitEvent::VmemStore) |
      eventBit(WaitEvent::LdsDma) | eventBit(WaitEvent::FlatLds) | eventBit(WaitEvent::Smem) |
      eventBit(WaitEvent::Export) | eventBit(WaitEvent::TensorLds) |
      eventBit(WaitEvent::AsyncLds);
  for (const MCInst &MI : I.mcInsts()) {
    const MCInstrDesc &D = MII.get(MI.getOpcode());
    const bool Load = D.mayLoad(), Store = D.mayStore();
    if (!Load && !Store)
      continue;
    MemoryAccess A = Counters->classify(MI, Mnemonic);
    bool Placed = false;
    auto Add = [&](SpaceAccess &S, bool R, bool W) {
      S.Reads |= R;
      S.Writes |= W;
      S.Ordered |= A.Atomic;
      Placed = true;
    };
    if (A.ReadsLds || A.WritesLds)
      Add(Lds, A.ReadsLds, A.WritesLds);
    if (A.GenericFlat)
      Add(Lds, Load, Store);
    if (A.has(WaitEvent::Gds))
      Add(Gds, Load, Store);
    if (A.Events & GlobalEvents)
      Add(Global, Load, Store);
    if (!Placed)
      for (SpaceAccess &S : E.Memory)
        S = SpaceAccess{Load, Store, /*Ordered=*/true};
  }
  if (E.accessesMemory() && I.kind() == InstKind::Machine)
    E.Location = uniformLocation(I);
  if (const auto *Tokens = I.getModifier<MemTokenData>())
    E.LdsTokens = Tokens->Tokens;
}

InstructionEffects EffectModel::effectsOf(const Instruction &I) const {
  InstructionEffects E;
  // The mnemonic as the hardware model's tables spell it, made once.
  SmallString<32> Buffer;
  const StringRef Mnemonic = lowerCase(I.mnemonic(), Buffer);
  E.Fence = isFence(I, Mnemonic) || endsClause(I);
  const bool Everything = I.kind() == InstKind::Opaque || I.kind() == InstKind::Pseudo ||
                          I.facts().has(IF_Opaque) || I.facts().has(IF_Call);
  if (Everything) {
    E.Reads = RU.all();
    E.Writes = RU.all();
    for (SpaceAccess &S : E.Memory)
      S = SpaceAccess{true, true, true};
    return E;
  }
  E.Reads = RU.none();
  E.Writes = RU.none();
  for (MCRegister R : I.facts().Uses)
    RU.set(E.Reads, R);
  for (MCRegister R : I.facts().Defs)
    RU.set(E.Writes, R);
  if (isTokenBarrier(I)) {
    // It orders the LDS buffers of its tokens (writers before it, readers
    // after it) and, as every barrier, all memory other waves may see
    // through global memory or GDS, and the other barriers.
    E.Memory[unsigned(MemorySpace::Lds)] = SpaceAccess{true, true, false};
    E.Memory[unsigned(MemorySpace::Global)] = SpaceAccess{true, true, true};
    E.Memory[unsigned(MemorySpace::Gds)] = SpaceAccess{true, true, true};
    E.LdsTokens = I.getModifier<LdsDependenceData>()->Uses;
    return E;
  }
  addMemory(I, Mnemonic, E);
  return E;
}

} // namespace stinkytofu

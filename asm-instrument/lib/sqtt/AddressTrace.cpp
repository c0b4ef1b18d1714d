//===- AddressTrace.cpp - Which operations address tracing records --------===//
#include "asm-instrument/sqtt/AddressTrace.h"
#include "asm-instrument/sqtt/MarkerSites.h"
#include "asm-instrument/sqtt/SourceLocations.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/PrintedInstruction.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCInstrInfo.h"

using namespace llvm;

namespace stinkytofu::sqtt {

unsigned TracedOperation::extraPayloadCount(unsigned WaveSize) const {
  const unsigned Exec = 2, Descriptor = 3;
  switch (Category) {
  case AddressCategory::Flat64:
    return Exec + 2 * WaveSize;
  case AddressCategory::Lds32:
  case AddressCategory::LanePermute:
    return Exec + WaveSize;
  case AddressCategory::Buffer:
    return Exec + Descriptor + WaveSize;
  case AddressCategory::StructBuffer:
    return Exec + Descriptor + 2 * WaveSize;
  }
  return 0;
}

std::vector<std::string *> TracedOperation::scalarSources() {
  return {&SAddrLo, &SAddrHi, &Rsrc0, &Rsrc1, &SOffset};
}

unsigned traceWaveSize(const TargetInfo &TI) {
  if (TI.features().contains("+wavefrontsize64"))
    return 64;
  return TI.hardware().waveSize();
}

namespace {

/// The 32-bit registers of `v[2:3]` / `s4` / `s[8:11]`, in order; empty for
/// anything else.
SmallVector<std::string, 4> registers(StringRef Op) {
  SmallVector<std::string, 4> Out;
  if (Op.empty() || !isAlpha(Op.front()))
    return Out;
  size_t Bracket = Op.find('[');
  if (Bracket == StringRef::npos) {
    if (Op.size() > 1 && (Op.front() == 'v' || Op.front() == 's') &&
        all_of(Op.drop_front(), [](char C) { return isDigit(C); }))
      Out.push_back(Op.str());
    return Out;
  }
  StringRef Prefix = Op.take_front(Bracket);
  StringRef Range = Op.drop_front(Bracket + 1).take_until([](char C) { return C == ']'; });
  auto [A, B] = Range.split(':');
  unsigned Lo, Hi;
  if (A.getAsInteger(10, Lo))
    return Out;
  if (B.empty())
    Hi = Lo;
  else if (B.getAsInteger(10, Hi) || Hi < Lo)
    return Out;
  for (unsigned R = Lo; R <= Hi; ++R)
    Out.push_back((Prefix + Twine(R)).str());
  return Out;
}

std::string accessKind(bool Load, bool Store) {
  if (Load && Store)
    return "atomic";
  return Load ? "load" : "store";
}

} // namespace

std::optional<TracedOperation> tracedOperation(const Instruction &I, const TargetInfo &TI,
                                               AddressTraceFilter Filter) {
  if (I.kind() != InstKind::Machine || I.mcInsts().size() != 1)
    return std::nullopt;
  const MCInst &MI = I.mcInsts().front();
  const MCInstrDesc &Desc = TI.instrInfo().get(MI.getOpcode());
  auto Flag = [&](StringRef Name) {
    std::optional<unsigned> Bit = HardwareModel::tsFlagBit(Name);
    return Bit && (Desc.TSFlags >> *Bit & 1);
  };
  const bool Atomic = Flag("IsAtomicRet") || Flag("IsAtomicNoRet");
  const bool Load = Desc.mayLoad(), Store = Desc.mayStore();
  const bool Buffer = Flag("MUBUF") || Flag("MTBUF"), Flat = Flag("FLAT"), Ds = Flag("DS");
  if (!Buffer && !Flat && !Ds)
    return std::nullopt;
  StringRef Permute = Ds ? HardwareModel::lanePermuteKind(I.mnemonic().lower()) : "";
  if ((Ds ? !Filter.Lds : !Filter.Memory) || (!Load && !Store && Permute.empty()))
    return std::nullopt; // not traced, or cache maintenance / ds_swizzle: no access
  // A load that stores without being an atomic is an LDS DMA.
  if (!Ds && Load && Store && !Atomic)
    return std::nullopt;
  if (Flag("FlatScratch") || Flag("GWS"))
    return std::nullopt;

  PrintedInstruction P(TI.printMC(MI));
  if (P.has("gds") || P.has("lds") || P.has("scale_offset"))
    return std::nullopt;
  const unsigned Defs = Desc.getNumDefs();
  TracedOperation Op;
  if (Buffer) {
    // vdata/vdst, vaddr, srsrc, soffset.
    if (P.Operands.size() < 4)
      return std::nullopt;
    SmallVector<std::string, 4> VAddr = registers(P.Operands[1]),
                                Rsrc = registers(P.Operands[2]);
    if (Rsrc.size() != 4)
      return std::nullopt;
    const bool Idxen = P.has("idxen"), Offen = P.has("offen");
    if (VAddr.size() != unsigned(Idxen) + unsigned(Offen))
      return std::nullopt;
    Op.Category = Idxen ? AddressCategory::StructBuffer : AddressCategory::Buffer;
    Op.Kind = (Idxen ? "struct_buffer_" : "buffer_") + accessKind(Load || Atomic, Store || Atomic);
    if (Idxen)
      Op.VIndex = VAddr.front();
    if (Offen)
      Op.AddrLo = VAddr.back();
    Op.Rsrc0 = Rsrc[0];
    Op.Rsrc1 = Rsrc[1];
    StringRef SOffset = P.Operands[3];
    Op.SOffset = SOffset == "off" || SOffset == "null" ? "0" : SOffset.str();
    Op.Offset = P.field("offset").value_or(0);
    return Op;
  }

  // FLAT and DS: [vdst,] vaddr, ...
  const unsigned AddrIdx = Defs ? 1 : 0;
  if (P.Operands.size() <= AddrIdx || (Ds && P.Operands.size() < 2))
    return std::nullopt; // ds_append, ds_*_addtid: no address VGPR
  SmallVector<std::string, 4> VAddr = registers(P.Operands[AddrIdx]);
  if (VAddr.empty() || VAddr.front().front() != 'v')
    return std::nullopt;
  if (Ds) {
    if (VAddr.size() != 1)
      return std::nullopt;
    Op.AddrLo = VAddr.front();
    if (!Permute.empty()) {
      Op.Category = AddressCategory::LanePermute;
      Op.Kind = Permute.str();
    } else {
      Op.Category = AddressCategory::Lds32;
      Op.Kind = "lds_" + accessKind(Load, Store);
    }
    if (std::optional<int64_t> Off = P.field("offset")) {
      Op.Offset = *Off;
    } else if (std::optional<int64_t> Off0 = P.field("offset0")) {
      // Two-address forms: the first element, offset0 elements of the data
      // width past vaddr (64 elements with st64).
      // The data width: half of vdst's (read2), or data0's (write2).
      unsigned ElementBytes = Defs ? 2 * registers(P.Operands[0]).size()
                                   : 4 * registers(P.Operands[AddrIdx + 1]).size();
      if (StringRef(TI.instrInfo().getName(MI.getOpcode())).contains("ST64"))
        ElementBytes *= 64;
      Op.Offset = *Off0 * ElementBytes;
    }
    return Op;
  }
  Op.Category = AddressCategory::Flat64;
  Op.Kind = accessKind(Load || Atomic, Store || Atomic);
  Op.Offset = P.field("offset").value_or(0);
  StringRef Last = P.Operands.back();
  SmallVector<std::string, 4> SAddr = Flag("FlatGlobal") ? registers(Last)
                                                         : SmallVector<std::string, 4>();
  if (SAddr.size() == 2 && SAddr.front().front() == 's') {
    if (VAddr.size() != 1)
      return std::nullopt;
    Op.AddrLo = VAddr.front();
    Op.SAddrLo = SAddr[0];
    Op.SAddrHi = SAddr[1];
    return Op;
  }
  if (VAddr.size() != 2)
    return std::nullopt;
  Op.AddrLo = VAddr[0];
  Op.AddrHi = VAddr[1];
  return Op;
}

std::vector<MarkerSite> addressTraceSites(Function &F, AddressTraceFilter Filter,
                                          MarkerIdAllocator &Ids, const SourceLocations &Locs) {
  const TargetInfo &TI = F.parent()->target();
  const unsigned Wave = traceWaveSize(TI);
  // Under s_set_vgpr_msb (gfx1250) a VGPR name means a register of the bank
  // the mode selects, for the traced instruction and for the inserted
  // v_readlane alike, per operand slot; that is not modelled here.
  bool SetsVgprMsb = false;
  if (unsigned SetMsb = VgprMsbCodec(TI).setVgprMsbOpcode())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions())
        SetsVgprMsb |= I.kind() == InstKind::Machine && I.mcInsts().size() == 1 &&
                       I.mcInsts().front().getOpcode() == SetMsb;
  DenseMap<const Instruction *, std::string> Where;
  std::vector<MarkerSite> Sites;
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions()) {
      std::optional<TracedOperation> Op = tracedOperation(I, TI, Filter);
      if (!Op)
        continue;
      if (Where.empty())
        Where = Locs.instructionLocations(F);
      MarkerSite S;
      S.Kind = SiteKind::AddressTrace;
      S.Rank = SiteRank::BeforeNext;
      S.Point = InsertPoint::before(I);
      S.Source = MarkerSite::IdSource::Ledger;
      S.Handle = Ids.addAddressTrace(Op->funcmapName(), Where.lookup(&I),
                                     Op->extraPayloadCount(Wave));
      S.Origin = &I;
      S.What = "address trace of '" + I.mnemonic().str() + "'";
      if (SetsVgprMsb)
        Op->Unsupported = "the function selects VGPR banks with s_set_vgpr_msb, "
                          "which address tracing does not follow";
      S.Trace = std::make_shared<const TracedOperation>(std::move(*Op));
      Sites.push_back(std::move(S));
    }
  return Sites;
}

} // namespace stinkytofu::sqtt

//===- HardwareModel.cpp - Per-architecture facts MC does not describe ----===//
//
// The data comes from stinkytofu/hw/HardwareModel.td through
// gen_hardware_model.py, which fills the types declared below.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/hw/HardwareModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <utility>

namespace stinkytofu {
namespace hwgen {

/// One mnemonic prefix of an instruction class.
struct PrefixEntry {
  llvm::StringRef Prefix;
  unsigned ClassIndex;
};

/// A mnemonic and what the .td file says about it (a role, or counters
/// separated by spaces).
struct MnemonicEntry {
  llvm::StringRef Mnemonic;
  llvm::StringRef Value;
};

using CounterDesc = WaitCounterDesc;
using EventCounterDesc = CounterEventDesc;

/// A wait packing several counts (CounterWait with Offsets).
struct PackedWaitEntry {
  llvm::StringRef Mnemonic;
  PackedWaitLayout Layout;
};

/// One SIInstrFlags bit (TSFlagBits).
struct TSFlagBit {
  llvm::StringRef Name;
  unsigned Bit;
};

/// Everything HardwareModel.td says about one processor.
struct ProcessorDesc {
  llvm::StringRef Name;
  llvm::StringRef Generation;
  unsigned WaveSize;
  bool HasTtraceDataImm;
  unsigned TtraceDataImmMax;
  bool NeedsNopBeforeTtraceData;
  unsigned MaxSGPRs;
  unsigned MaxVGPRs;
  bool HasAGPRs;
  OccupancyRules Occupancy;
  VgprMsbMode VgprMsb;
  llvm::ArrayRef<HwIdField> HwIdFields;
  /// Field names for ScopeDim::Wave, Simd, Cu, Wg.
  std::array<llvm::StringRef, 4> ScopeFields;
  int SeAidSendMsgId; ///< -1 when HW_ID carries the SE
  ShaderClock Clock;
  /// Indexed like the classes of Prefixes[].ClassIndex.
  llvm::ArrayRef<InstClass> InstClasses;
  llvm::ArrayRef<WaitCounterDesc> Counters;
  llvm::ArrayRef<CounterEventDesc> CounterEvents;
  bool BarrierNeedsIdleCounters;
  bool VmemWritesVgprInOrder;
  bool FlatCountsInOrder;
  bool DelayAluMatrixIsTrans;
  llvm::StringRef SaluSgprReadWait;
  llvm::StringRef SgprLaneSaveWait;
  llvm::StringRef SgprLaneRestoreWait;
  llvm::StringRef DsM0FreeVariant;
  llvm::ArrayRef<DepCtrField> DepCtrFields;
  llvm::ArrayRef<llvm::StringRef> DepCtrHazards;
};

} // namespace hwgen
} // namespace stinkytofu

#include "stinkytofu/hw/HardwareModel.inc"
#include "stinkytofu/hw/RenamingFacts.h"

using namespace stinkytofu;
using namespace stinkytofu::hwgen;

namespace {

constexpr std::size_t NumProcessors = std::size(Processors);

static_assert(std::size(ProcessorNames) == NumProcessors);
static_assert(DefaultInstClass < NumInstClasses);

template <std::size_t... I>
constexpr std::array<HardwareModel, NumProcessors>
makeModels(std::index_sequence<I...>) {
  return {{HardwareModel(Processors[I])...}};
}

constexpr std::array<HardwareModel, NumProcessors> Models =
    makeModels(std::make_index_sequence<NumProcessors>());

constexpr bool prefixesAreValid() {
  for (const PrefixEntry &E : Prefixes)
    if (E.ClassIndex >= NumInstClasses || E.Prefix.empty())
      return false;
  return true;
}
static_assert(prefixesAreValid(), "malformed generated prefix table");

} // namespace

const HardwareModel *HardwareModel::lookup(llvm::StringRef Processor) {
  llvm::StringRef Name = Processor.split(':').first.trim();
  for (std::size_t I = 0; I != NumProcessors; ++I)
    if (Processors[I].Name == Name)
      return &Models[I];
  return nullptr;
}

llvm::ArrayRef<llvm::StringRef> HardwareModel::processors() {
  return ProcessorNames;
}

llvm::StringRef HardwareModel::processor() const { return D->Name; }
llvm::StringRef HardwareModel::generation() const { return D->Generation; }
unsigned HardwareModel::waveSize() const { return D->WaveSize; }
bool HardwareModel::hasTtraceDataImm() const { return D->HasTtraceDataImm; }
unsigned HardwareModel::ttraceDataImmMax() const {
  return D->TtraceDataImmMax;
}
bool HardwareModel::needsNopBeforeTtraceData() const {
  return D->NeedsNopBeforeTtraceData;
}
unsigned HardwareModel::maxSGPRs() const { return D->MaxSGPRs; }
unsigned HardwareModel::maxVGPRs() const { return D->MaxVGPRs; }
bool HardwareModel::hasAGPRs() const { return D->HasAGPRs; }
const OccupancyRules &HardwareModel::occupancy() const { return D->Occupancy; }
VgprMsbMode HardwareModel::vgprMsbMode() const { return D->VgprMsb; }

llvm::ArrayRef<HwIdField> HardwareModel::hwIdFields() const {
  return D->HwIdFields;
}

const HwIdField *HardwareModel::hwIdField(llvm::StringRef Name) const {
  for (const HwIdField &F : D->HwIdFields)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

const HwIdField &HardwareModel::scopeField(ScopeDim Dim) const {
  // The generator checked that every scope field name exists.
  const HwIdField *F = hwIdField(D->ScopeFields[static_cast<unsigned>(Dim)]);
  assert(F && "scope field missing from the generated tables");
  return *F;
}

std::optional<unsigned> HardwareModel::seAidSendMsgId() const {
  if (D->SeAidSendMsgId < 0)
    return std::nullopt;
  return static_cast<unsigned>(D->SeAidSendMsgId);
}

const ShaderClock &HardwareModel::shaderClock() const { return D->Clock; }

llvm::ArrayRef<InstClass> HardwareModel::instClasses() const {
  return D->InstClasses;
}

const InstClass &HardwareModel::classify(llvm::StringRef Mnemonic) const {
  // Prefixes[] is sorted longest first, so the first match is the longest.
  for (const PrefixEntry &E : Prefixes)
    if (Mnemonic.starts_with(E.Prefix))
      return D->InstClasses[E.ClassIndex];
  return D->InstClasses[DefaultInstClass];
}

namespace {
/// A table of MnemonicEntry hashed by mnemonic. The wait analyses ask of
/// every instruction (waitCounters, eventOfMnemonic: 170,000 times each on
/// the SQTT run of a Tensile kernel) and the tables name few mnemonics, so
/// the first character and length rule most out before any hashing; a
/// search of the sorted table cost six times as much.
class MnemonicIndex {
public:
  explicit MnemonicIndex(llvm::ArrayRef<MnemonicEntry> Table) {
    for (const MnemonicEntry &E : Table) {
      LengthsByFirst[firstChar(E.Mnemonic)] |= lengthBit(E.Mnemonic);
      ByMnemonic.try_emplace(E.Mnemonic, E.Value);
    }
  }
  /// What the table says about \p Mnemonic (empty: nothing).
  llvm::StringRef lookup(llvm::StringRef Mnemonic) const {
    if (!(LengthsByFirst[firstChar(Mnemonic)] & lengthBit(Mnemonic)))
      return {};
    auto It = ByMnemonic.find(Mnemonic);
    return It == ByMnemonic.end() ? llvm::StringRef() : It->second;
  }

private:
  static unsigned firstChar(llvm::StringRef M) { return M.empty() ? 0 : uint8_t(M[0]); }
  static uint64_t lengthBit(llvm::StringRef M) { return uint64_t(1) << std::min<size_t>(M.size(), 63); }
  std::array<uint64_t, 256> LengthsByFirst{};
  llvm::StringMap<llvm::StringRef> ByMnemonic;
};
} // namespace

/// What \p Table says about \p Mnemonic, through its index built on first
/// use (a function-local static: thread-safe).
template <const auto &Table> static llvm::StringRef lookupMnemonic(llvm::StringRef Mnemonic) {
  static const MnemonicIndex Index(Table);
  return Index.lookup(Mnemonic);
}

static InstRole roleNamed(llvm::StringRef Role) {
  return llvm::StringSwitch<InstRole>(Role)
      .Case("ScalarNop", InstRole::ScalarNop)
      .Case("VectorNop", InstRole::VectorNop)
      .Case("DelayAlu", InstRole::DelayAlu)
      .Case("DepCtrWait", InstRole::DepCtrWait)
      .Case("HwRegWrite", InstRole::HwRegWrite)
      .Case("Move32", InstRole::Move32)
      .Case("CrossLane", InstRole::CrossLane)
      .Case("Barrier", InstRole::Barrier)
      .Case("CacheInvalidate", InstRole::CacheInvalidate)
      .Case("Clause", InstRole::Clause)
      .Case("ReturningMessage", InstRole::ReturningMessage)
      .Case("LaneWrite", InstRole::LaneWrite)
      .Case("ProgramCounterRead", InstRole::ProgramCounterRead)
      .Case("BarrierWait", InstRole::BarrierWait)
      .Case("BranchIfZero", InstRole::BranchIfZero)
      .Case("BranchIfNonZero", InstRole::BranchIfNonZero)
      .Case("Sleep", InstRole::Sleep)
      .Case("InstructionPrefetch", InstRole::InstructionPrefetch)
      .Case("VgprMsbSwitch", InstRole::VgprMsbSwitch)
      .Default(InstRole::None);
}

bool stinkytofu::indexesRegistersAtRunTime(llvm::StringRef Mnemonic) {
  // Roles of the table that no InstRole stands for: only the register
  // renaming asks about them (RenamingFacts.h).
  return lookupMnemonic<Roles>(Mnemonic) == "RelativeIndex";
}

bool stinkytofu::writesConditionally(llvm::StringRef Mnemonic) {
  return lookupMnemonic<Roles>(Mnemonic) == "ConditionalWrite";
}

InstRole HardwareModel::roleOf(llvm::StringRef Mnemonic) {
  // Asked of every instruction by many passes: the roles are hashed by
  // mnemonic once (a search of the sorted table and a comparison of the
  // role's name cost ten times as much).
  static const llvm::StringMap<InstRole> ByMnemonic = [] {
    llvm::StringMap<InstRole> Map;
    for (const MnemonicEntry &E : Roles)
      Map[E.Mnemonic] = roleNamed(E.Value);
    return Map;
  }();
  auto It = ByMnemonic.find(Mnemonic);
  return It == ByMnemonic.end() ? InstRole::None : It->second;
}

llvm::SmallVector<llvm::StringRef, 4> HardwareModel::mnemonicsOf(InstRole Role) {
  llvm::SmallVector<llvm::StringRef, 4> Names;
  for (const MnemonicEntry &E : Roles)
    if (roleOf(E.Mnemonic) == Role && !llvm::is_contained(Names, E.Mnemonic))
      Names.push_back(E.Mnemonic);
  return Names;
}

bool HardwareModel::isHazardWait(llvm::StringRef Mnemonic) {
  switch (roleOf(Mnemonic)) {
  case InstRole::ScalarNop:
  case InstRole::VectorNop:
  case InstRole::DelayAlu:
  case InstRole::DepCtrWait:
    return true;
  default:
    return false;
  }
}

llvm::SmallVector<llvm::StringRef, 3> HardwareModel::waitCounters(llvm::StringRef Mnemonic) {
  llvm::SmallVector<llvm::StringRef, 3> Counters;
  // Most instructions are no wait: nothing to split.
  if (llvm::StringRef Names = lookupMnemonic<CounterWaits>(Mnemonic); !Names.empty())
    Names.split(Counters, ' ', -1, /*KeepEmpty=*/false);
  return Counters;
}

llvm::ArrayRef<WaitCounterDesc> HardwareModel::memoryCounters() const { return D->Counters; }
llvm::ArrayRef<CounterEventDesc> HardwareModel::counterEvents() const {
  return D->CounterEvents;
}
bool HardwareModel::barrierNeedsIdleCounters() const { return D->BarrierNeedsIdleCounters; }
bool HardwareModel::vmemWritesVgprInOrder() const { return D->VmemWritesVgprInOrder; }
bool HardwareModel::flatCountsInOrder() const { return D->FlatCountsInOrder; }
bool HardwareModel::delayAluMatrixIsTrans() const { return D->DelayAluMatrixIsTrans; }
llvm::StringRef HardwareModel::saluSgprReadWait() const { return D->SaluSgprReadWait; }
llvm::StringRef HardwareModel::sgprLaneSaveWait() const { return D->SgprLaneSaveWait; }
llvm::StringRef HardwareModel::sgprLaneRestoreWait() const { return D->SgprLaneRestoreWait; }
llvm::StringRef HardwareModel::dsM0FreeVariant() const { return D->DsM0FreeVariant; }

llvm::ArrayRef<DepCtrField> HardwareModel::depCtrFields() const { return D->DepCtrFields; }
llvm::ArrayRef<DepCtrField> HardwareModel::allDepCtrFields() { return AllDepCtrFields; }
const DepCtrField *HardwareModel::depCtrField(llvm::StringRef Name) const {
  for (const DepCtrField &F : D->DepCtrFields)
    if (F.Name == Name)
      return &F;
  return nullptr;
}
bool HardwareModel::hasDepCtrHazard(llvm::StringRef Rule) const {
  return llvm::is_contained(D->DepCtrHazards, Rule);
}

llvm::SmallVector<llvm::StringRef, 16> HardwareModel::counterWaitMnemonics() {
  llvm::SmallVector<llvm::StringRef, 16> Names;
  for (const MnemonicEntry &E : CounterWaits)
    Names.push_back(E.Mnemonic);
  return Names;
}

llvm::StringRef HardwareModel::eventOfMnemonic(llvm::StringRef Mnemonic) {
  return lookupMnemonic<EventMnemonics>(Mnemonic);
}

llvm::StringRef HardwareModel::lanePermuteKind(llvm::StringRef Mnemonic) {
  return lookupMnemonic<LanePermutes>(Mnemonic);
}

const PackedWaitLayout *HardwareModel::packedWaitLayout(llvm::StringRef Mnemonic) {
  for (const PackedWaitEntry &E : PackedWaits)
    if (E.Mnemonic == Mnemonic)
      return &E.Layout;
  return nullptr;
}

std::optional<unsigned> HardwareModel::tsFlagBit(llvm::StringRef Name) {
  for (const TSFlagBit &B : TSFlagBits)
    if (B.Name == Name)
      return B.Bit;
  return std::nullopt;
}

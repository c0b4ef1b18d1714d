//===- ModuleOptions.cpp - TensileLite's module options, checked --------===//
//
// The options dictionary of toStinkyTofuModule: the conversion's own keys
// and every module option of the reference's StinkyAsmModule (its
// MODULE_OPTIONS_LIST and the scheduler's documented tuning options).
// Each key is checked for its type and has exactly one of four fates
// (docs/rocisa-bridge.md, "TensileLite's call", lists each option):
//
// - it selects or tunes a pass of the -O pipeline, as in the reference's
//   gfx1250 backend (PipelineOptions);
// - it describes the kernel, which StinkyTofu reads from the code instead;
// - it tunes a heuristic of the reference's scheduler that StinkyTofu has
//   no counterpart for: accepted, applied nowhere, and listed on the module
//   (optionsWithoutCounterpart; Python warns);
// - it asks for something StinkyTofu does not do: accepted at its neutral
//   value only, an error otherwise.
//
// A key the reference does not have is an error: a misspelt option would
// otherwise be a silent no-op, which is what the reference does with it.
//
//===----------------------------------------------------------------------===//
#include "ModuleOptions.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace rocisa::python {

namespace {

enum class OptionType { Bool, Int, Float, String, List };

struct OptionEntry {
  const char *Name;
  OptionType Type;
};

/// Facts about the kernel the reference's scheduler and its Tensile-keyed
/// passes read (tile shape, vector widths, prefetch depths, debug output
/// that does not change the code); StinkyTofu's passes read the code.
const OptionEntry KernelFacts[] = {{"TileA0", OptionType::Int},
                                   {"TileB0", OptionType::Int},
                                   {"TileM0", OptionType::Int},
                                   {"NumGRA", OptionType::Int},
                                   {"NumGRB", OptionType::Int},
                                   {"NumGRM", OptionType::Int},
                                   {"SubGroup0", OptionType::Int},
                                   {"SubGroup1", OptionType::Int},
                                   {"WaveGroup0", OptionType::Int},
                                   {"WaveGroup1", OptionType::Int},
                                   {"VectorWidthA", OptionType::Int},
                                   {"VectorWidthB", OptionType::Int},
                                   {"GlobalReadVectorWidthA", OptionType::Int},
                                   {"GlobalReadVectorWidthB", OptionType::Int},
                                   {"DirectToLdsA", OptionType::Bool},
                                   {"DirectToLdsB", OptionType::Bool},
                                   {"UseSgprForGRO", OptionType::Int},
                                   {"PrefetchLocalRead", OptionType::Int},
                                   {"EnableLoopCarriedTokenDeps", OptionType::Bool},
                                   {"VgprMsbMode", OptionType::Int},
                                   {"RequiresXCntForVolatileVMEM", OptionType::Bool},
                                   {"EnableXnackReplay", OptionType::Bool},
                                   {"SwInstructionPrefetchAbsBaseSgpr", OptionType::Int},
                                   {"DebugLevel", OptionType::Int},
                                   {"EnableRemarks", OptionType::Bool},
                                   {"VerifyEach", OptionType::Bool}};

/// The reference's scheduler heuristics (its scheduler-tuning-parameters
/// page, and the options of its other versions: DsReadPerWmma,
/// WmmaBatchSize). StinkyTofu's scheduler keeps a schedule only when its
/// own cycle estimate improves and has none of these knobs.
const OptionEntry SchedulerHeuristics[] = {{"WmmaQueueDepth", OptionType::Int},
                                           {"WmmaQueueCoverCycles", OptionType::Int},
                                           {"WmmaBatchSize", OptionType::Int},
                                           {"DsReadPerCap", OptionType::Int},
                                           {"DsReadPerWmma", OptionType::Int},
                                           {"DsIssueCapSpanCycles", OptionType::Int},
                                           {"DsIssueCapMode", OptionType::Int},
                                           {"DsReadQueueDepth", OptionType::Int},
                                           {"DsReadThrottleLatency", OptionType::Int},
                                           {"DsReadThrottleTransitionFactor", OptionType::Float},
                                           {"DsReadThrottleTransitionEntries", OptionType::Int},
                                           {"DsReadDrainLatency", OptionType::Int},
                                           {"DsReadOrder", OptionType::Int},
                                           {"LockDsReadOrder", OptionType::Bool},
                                           {"DsSlotFirst", OptionType::Bool},
                                           {"GlobalReadQueueDepth", OptionType::Int},
                                           {"GlobalReadDrainLatency", OptionType::Int},
                                           {"TensorLoadWmmaSpace", OptionType::Int},
                                           {"TensorLoadDsLoadGapCycles", OptionType::Int},
                                           {"EvenSpreadFillers", OptionType::Bool},
                                           {"PrefetchLeadWmmas", OptionType::Int},
                                           {"PrefetchLeadMinStageWmmas", OptionType::Int},
                                           {"WaitAluHoldStrictCount", OptionType::Int},
                                           {"WarGateWmmas", OptionType::Int}};

/// Switches of the reference's expert scheduling mode 2 (SCHED_MODE 2, its
/// wait-ALU counting and epilogue store sinking): StinkyTofu keeps the
/// hardware's interlocks, so on is listed like a heuristic.
const OptionEntry Esm2Switches[] = {{"EnableESM2", OptionType::Bool},
                                    {"EnableESM2TrackValuVsrc", OptionType::Bool}};

/// What StinkyTofu's pipeline does not do: accepted at the value that asks
/// for nothing, an error otherwise, never ignored.
struct NotYetEntry {
  const char *Name;
  OptionType Type;
  int64_t Neutral; // Bool and Int; String and List: empty.
  const char *Why;
};
const NotYetEntry NotYet[] = {
    {"PrintBeforePass", OptionType::String, 0, "the reference's IR dumps"},
    {"PrintAfterPass", OptionType::String, 0, "the reference's IR dumps"},
    {"DebugPass", OptionType::String, 0, "the reference's PASS_DEBUG logging"},
    {"PassOrderSnapshotJson", OptionType::String, 0, "the reference's pass-order snapshot"},
    {"TimePasses", OptionType::Bool, 0, "the reference's pass timing report"},
    {"EnableSwInstructionPrefetchAbs", OptionType::Bool, 0,
     "SwInstructionPrefetchAbs{Static,Dynamic}Pass, which StinkyTofu does not have (it needs "
     "a base SGPR the producer reserves)"},
    {"TDMLoadWaveSync", OptionType::Bool, 0,
     "TDMLoadWaveSyncPass from the bridge (it needs the waves per workgroup; run it by name "
     "with NumWaves=)"},
    {"RegisterAllocation", OptionType::Int, 0,
     "register allocation from the bridge (run RegisterAllocationPass by name)"},
    {"CloneList", OptionType::List, 0, "RegionClonePass from the bridge (no clone list)"},
    {"ClusterBarrierLoopPeriod", OptionType::Int, 1,
     "cluster handshakes kept on every k-th trigger only"},
    {"ClusterDriftCanaryCycles", OptionType::Int, 0, "the reference's cluster canaries"},
    {"ClusterSkewCanaryCycles", OptionType::Int, 0, "the reference's cluster canaries"}};

const char *typeName(OptionType T) {
  switch (T) {
  case OptionType::Bool:
    return "a bool";
  case OptionType::Int:
    return "an integer";
  case OptionType::Float:
    return "a number";
  case OptionType::String:
    return "a string";
  case OptionType::List:
    return "a list";
  }
  return "";
}

/// \p Value checked to be \p Type (Python's bool is an int; TensileLite
/// passes 0/1 kernel parameters for flags).
py::object checked(const std::string &Key, py::handle Value, OptionType Type) {
  bool Ok = false;
  switch (Type) {
  case OptionType::Bool:
  case OptionType::Int:
    Ok = py::isinstance<py::int_>(Value);
    break;
  case OptionType::Float:
    Ok = py::isinstance<py::int_>(Value) || py::isinstance<py::float_>(Value);
    break;
  case OptionType::String:
    Ok = py::isinstance<py::str>(Value);
    break;
  case OptionType::List:
    Ok = py::isinstance<py::list>(Value) || py::isinstance<py::tuple>(Value);
    break;
  }
  if (!Ok)
    throw py::type_error("module option '" + Key + "' must be " + typeName(Type));
  return py::reinterpret_borrow<py::object>(Value);
}

template <typename Table> auto *find(const Table &T, const std::string &K) {
  auto *E = llvm::find_if(T, [&](const auto &Entry) { return K == Entry.Name; });
  return E == std::end(T) ? nullptr : E;
}

/// The keys that tune InsertClusterBarrierPass, and its argument for each.
const std::pair<const char *, const char *> ClusterBarrierArgs[] = {
    {"ClusterBarrierRule3SignalLeadCycles", "lead"},
    {"ClusterBarrierRule3Mode", "rule3Mode"},
    {"ClusterProducerDrain", "producerDrain"},
    {"PrefetchGlobalRead", "pgr"}};

} // namespace

ModuleOptions toModuleOptions(py::object Options, std::string Signature, llvm::StringRef Arch) {
  ModuleOptions O;
  O.Conversion.Prologue = std::move(Signature);
  if (Options.is_none())
    return O;
  auto &P = O.Pipeline;
  std::optional<bool> ClusterBarrier, RelPrefetch, OldPrefetch;
  std::optional<int64_t> ScratchSgpr;
  bool StreamKMulticast = false;
  std::vector<std::string> ClusterArgs;
  auto Int = [](py::object V) { return V.cast<int64_t>(); };
  for (auto [Key, Value] : Options.cast<py::dict>()) {
    std::string K = Key.cast<std::string>();
    if (K == "LabelShortBranches") {
      O.Conversion.LabelShortBranches = Value.cast<bool>();
    } else if (K == "Prologue") {
      O.Conversion.Prologue += Value.cast<std::string>();
    } else if (K == "Epilogue") {
      O.Conversion.Epilogue = Value.cast<std::string>();
    } else if (K == "OptLevel") {
      int64_t Level = Int(checked(K, Value, OptionType::Int));
      if (Level < 0 || Level > 3)
        throw py::value_error("module option 'OptLevel' is " + std::to_string(Level) +
                              ": use 0 to 3");
      P.OptLevel = unsigned(Level);
    } else if (K == "EnableWaitCntInsertion") {
      P.WaitCntInsertion = checked(K, Value, OptionType::Bool).cast<bool>();
    } else if (K == "wavefrontSize") {
      int64_t Size = Int(checked(K, Value, OptionType::Int));
      const stinkytofu::HardwareModel *HM = stinkytofu::HardwareModel::lookup(Arch);
      bool Wave32 = HM && HM->waveSize() == 32;
      bool Wave64 = HM && (HM->waveSize() == 64 || HM->occupancy().VgprGranuleWave64 != 0);
      if (HM && !((Size == 32 && Wave32) || (Size == 64 && Wave64)))
        throw py::value_error("module option 'wavefrontSize' is " + std::to_string(Size) + ": " +
                              Arch.str() + " runs " +
                              (Wave32 && Wave64 ? "wave32 or wave64"
                               : Wave32         ? "wave32 only"
                                                : "wave64 only"));
    } else if (K == "ArchName") {
      std::string Name = checked(K, Value, OptionType::String).cast<std::string>();
      if (!Name.empty() && Name != Arch)
        throw py::value_error("module option 'ArchName' is '" + Name + "': the module is " +
                              Arch.str());
    } else if (K == "ClusterBarrier") {
      ClusterBarrier = checked(K, Value, OptionType::Bool).cast<bool>();
    } else if (K == "StreamKMulticast") {
      StreamKMulticast = checked(K, Value, OptionType::Bool).cast<bool>();
    } else if (auto *A = llvm::find_if(ClusterBarrierArgs, [&](auto &E) { return K == E.first; });
               A != std::end(ClusterBarrierArgs)) {
      ClusterArgs.push_back(std::string(A->second) + "=" +
                            std::to_string(Int(checked(K, Value, OptionType::Int))));
    } else if (K == "EnableSwInstructionPrefetchRelStatic") {
      RelPrefetch = checked(K, Value, OptionType::Bool).cast<bool>();
    } else if (K == "EnableSwPrefetchInsertion") {
      OldPrefetch = checked(K, Value, OptionType::Bool).cast<bool>();
    } else if (K == "SwPrefetchScratchSgpr") {
      ScratchSgpr = Int(checked(K, Value, OptionType::Int));
    } else if (K == "RemoveInstructions") {
      // The reference's comma-separated mnemonics; blanks around them are
      // not part of a name.
      llvm::SmallVector<llvm::StringRef> Names;
      std::string List = checked(K, Value, OptionType::String).cast<std::string>();
      llvm::SplitString(List, Names, ", \t");
      P.RemoveInstructions = llvm::join(Names, ",");
    } else if (K == "WaitRepairSlotsToMovePastAnchor" || K == "WaitRepairSlotsAfterAnchor") {
      // Two spellings of one option in the reference's history; at most 0
      // leaves the repair out, as there.
      P.WaitRepairSlots = unsigned(std::max<int64_t>(0, Int(checked(K, Value, OptionType::Int))));
    } else if (K == "TDMInflightLimit") {
      int64_t Limit = Int(checked(K, Value, OptionType::Int));
      if (Limit < 0)
        throw py::value_error("module option 'TDMInflightLimit' is " + std::to_string(Limit) +
                              ": use 0 (off) or more");
      P.TDMInflightLimit = unsigned(Limit);
    } else if (auto *F = find(KernelFacts, K)) {
      checked(K, Value, F->Type);
    } else if (auto *H = find(SchedulerHeuristics, K)) {
      checked(K, Value, H->Type);
      O.WithoutCounterpart.push_back(K);
    } else if (auto *E = find(Esm2Switches, K)) {
      if (checked(K, Value, E->Type).cast<bool>())
        O.WithoutCounterpart.push_back(K);
    } else if (auto *N = find(NotYet, K)) {
      py::object V = checked(K, Value, N->Type);
      bool Neutral = N->Type == OptionType::String || N->Type == OptionType::List
                         ? py::len(V) == 0
                         : Int(V) == N->Neutral;
      if (!Neutral)
        throw py::value_error("module option '" + K + "' asks for " + N->Why +
                              ", which StinkyTofu's pipeline does not do (docs/rocisa-bridge.md)");
    } else {
      throw py::value_error("unknown module option '" + K +
                            "' (the reference's module options, LabelShortBranches, Prologue, "
                            "Epilogue; docs/rocisa-bridge.md)");
    }
  }
  if (ClusterBarrier.value_or(false)) {
    if (StreamKMulticast)
      ClusterArgs.push_back("streamKMulticast");
    P.ClusterBarrierArgs = llvm::join(ClusterArgs, ",");
  }
  if (RelPrefetch && OldPrefetch && *RelPrefetch != *OldPrefetch)
    throw py::value_error("module options 'EnableSwInstructionPrefetchRelStatic' and "
                          "'EnableSwPrefetchInsertion' contradict each other");
  // An explicit switch decides; else the older reference's rule, where a
  // scratch SGPR of -1 turns the prefetch off (StinkyTofu's passes need no
  // scratch SGPR, so any other value keeps the -O default).
  if (RelPrefetch || OldPrefetch)
    P.SwInstructionPrefetch = RelPrefetch ? *RelPrefetch : *OldPrefetch;
  else if (ScratchSgpr && *ScratchSgpr == -1)
    P.SwInstructionPrefetch = false;
  return O;
}

} // namespace rocisa::python

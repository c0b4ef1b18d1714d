//===- BindConvert.cpp - toStinkyTofuModule and the converted module -----===//
#include "Bindings.h"
#include "rocisa-bridge/convert/TargetCaps.h"
#include "rocisa-bridge/convert/ToStinkyTofu.h"
#include "stinkytofu/hw/HardwareModel.h"
#include <pybind11/stl.h>

namespace rocisa::python {

namespace {

/// "gfx942", or rocisa's (9, 4, 2).
std::string toArch(py::handle Arch) {
  if (py::isinstance<py::str>(Arch))
    return Arch.cast<std::string>();
  auto T = Arch.cast<std::tuple<int, int, int>>();
  return archName(std::get<0>(T), std::get<1>(T), std::get<2>(T));
}

enum class OptionType { Bool, Int, String };

/// TensileLite's module options (KernelWriter's `stinky_module_options`)
/// that only tune the reference's scheduler, remarks and debug output: each
/// is checked for its type; StinkyTofu's pipeline derives what it needs from
/// the code (docs/rocisa-bridge.md).
const std::pair<const char *, OptionType> TuningOptions[] = {
    {"EnableRemarks", OptionType::Bool},       {"DebugLevel", OptionType::Int},
    {"EnableESM2", OptionType::Bool},          {"EnableLoopCarriedTokenDeps", OptionType::Bool},
    {"TileA0", OptionType::Int},               {"TileB0", OptionType::Int},
    {"TileM0", OptionType::Int},               {"SubGroup0", OptionType::Int},
    {"SubGroup1", OptionType::Int},            {"WaveGroup0", OptionType::Int},
    {"WaveGroup1", OptionType::Int},           {"VectorWidthA", OptionType::Int},
    {"VectorWidthB", OptionType::Int},         {"GlobalReadVectorWidthA", OptionType::Int},
    {"GlobalReadVectorWidthB", OptionType::Int}, {"DirectToLdsA", OptionType::Bool},
    {"DirectToLdsB", OptionType::Bool},        {"UseSgprForGRO", OptionType::Int},
    {"PrefetchGlobalRead", OptionType::Int},   {"PrefetchLocalRead", OptionType::Int},
    {"SwPrefetchScratchSgpr", OptionType::Int}, {"VgprMsbMode", OptionType::Int}};

/// Options that ask for something StinkyTofu does not do yet: accepted at
/// their neutral value (false, empty), an error otherwise, never ignored.
const std::pair<const char *, OptionType> NotYetOptions[] = {
    {"ClusterBarrier", OptionType::Bool},     {"EnableSwPrefetchInsertion", OptionType::Bool},
    {"RemoveInstructions", OptionType::String}, {"PrintBeforePass", OptionType::String},
    {"PrintAfterPass", OptionType::String},   {"DebugPass", OptionType::String},
    {"PassOrderSnapshotJson", OptionType::String}};

/// \p Value as \p Type (Python's bool is an int; TensileLite passes 0/1
/// kernel parameters for flags).
py::object checkedOption(const std::string &Key, py::handle Value, OptionType Type) {
  bool IsInt = py::isinstance<py::int_>(Value);
  if ((Type == OptionType::String && !py::isinstance<py::str>(Value)) ||
      (Type != OptionType::String && !IsInt))
    throw py::type_error("module option '" + Key + "' must be " +
                         (Type == OptionType::String ? "a string"
                          : Type == OptionType::Bool ? "a bool"
                                                     : "an integer"));
  return py::reinterpret_borrow<py::object>(Value);
}

struct ModuleOptions {
  ConversionOptions Conversion;
  StinkyModule::PipelineOptions Pipeline;
};

/// The options dictionary: the conversion's own keys and TensileLite's
/// module options; an unknown key is an error.
ModuleOptions toOptions(py::object Options, std::string Signature, llvm::StringRef Arch) {
  ModuleOptions O;
  O.Conversion.Prologue = std::move(Signature);
  if (Options.is_none())
    return O;
  auto Find = [](auto &Table, const std::string &K) {
    return llvm::find_if(Table, [&](const auto &E) { return K == E.first; });
  };
  for (auto [Key, Value] : Options.cast<py::dict>()) {
    std::string K = Key.cast<std::string>();
    if (K == "LabelShortBranches")
      O.Conversion.LabelShortBranches = Value.cast<bool>();
    else if (K == "Prologue")
      O.Conversion.Prologue += Value.cast<std::string>();
    else if (K == "Epilogue")
      O.Conversion.Epilogue = Value.cast<std::string>();
    else if (K == "OptLevel") {
      int Level = checkedOption(K, Value, OptionType::Int).cast<int>();
      if (Level < 0 || Level > 3)
        throw py::value_error("module option 'OptLevel' is " + std::to_string(Level) +
                              ": use 0 to 3");
      O.Pipeline.OptLevel = unsigned(Level);
    } else if (K == "EnableWaitCntInsertion") {
      O.Pipeline.WaitCntInsertion = checkedOption(K, Value, OptionType::Bool).cast<bool>();
    } else if (K == "wavefrontSize") {
      int Size = checkedOption(K, Value, OptionType::Int).cast<int>();
      const stinkytofu::HardwareModel *HM = stinkytofu::HardwareModel::lookup(Arch);
      bool Wave32 = HM && HM->waveSize() == 32;
      bool Wave64 = HM && (HM->waveSize() == 64 || HM->occupancy().VgprGranuleWave64 != 0);
      if (HM && !((Size == 32 && Wave32) || (Size == 64 && Wave64)))
        throw py::value_error("module option 'wavefrontSize' is " + std::to_string(Size) +
                              ": " + Arch.str() + " runs " +
                              (Wave32 && Wave64 ? "wave32 or wave64"
                               : Wave32         ? "wave32 only"
                                                : "wave64 only"));
    } else if (auto *T = Find(TuningOptions, K); T != std::end(TuningOptions)) {
      checkedOption(K, Value, T->second);
    } else if (auto *N = Find(NotYetOptions, K); N != std::end(NotYetOptions)) {
      if (py::bool_(checkedOption(K, Value, N->second)))
        throw py::value_error("module option '" + K +
                              "' asks for what StinkyTofu does not do yet "
                              "(docs/rocisa-bridge.md); leave it unset, false or empty");
    } else {
      throw py::value_error("unknown module option '" + K +
                            "' (TensileLite's module options, LabelShortBranches, Prologue, "
                            "Epilogue)");
    }
  }
  return O;
}

/// A signature as rocisa's SignatureBase or the bridge's text: its text.
std::string signatureText(py::handle Signature) {
  return Signature.is_none() ? "" : py::str(Signature).cast<std::string>();
}

} // namespace

void bindConvert(py::module_ &Top) {
  py::class_<StinkyModule>(Top, "StinkyAsmModule")
      .def("runPasses",
           [](StinkyModule &M, std::string P) {
             check(withoutGil([&] { return M.runPasses(P); }));
           },
           py::arg("pipeline"))
      .def("runOptimizationPipeline",
           [](StinkyModule &M, std::optional<unsigned> Level) {
             check(withoutGil([&] { return M.runOptimizationPipeline(Level); }));
           },
           py::arg("level") = py::none())
      .def("emitAssembly",
           [](const StinkyModule &M) {
             return unwrap(withoutGil([&] { return M.emitAssembly(); }));
           })
      .def("emitStir", &StinkyModule::emitStir)
      .def("emitObject",
           [](const StinkyModule &M) {
             return py::bytes(unwrap(withoutGil([&] { return M.emitObject(); })));
           })
      .def("getName", &StinkyModule::getName)
      .def("numFunctions", [](const StinkyModule &M) { return M.getFunctionNames().size(); })
      .def("getFunctionNames", &StinkyModule::getFunctionNames)
      .def("hasFunction", [](const StinkyModule &M, std::string N) { return M.hasFunction(N); });

  Top.def(
      "toStinkyTofuModule",
      [](py::object Tree, py::object Arch, std::string Name, py::object Signature,
         py::object Options) {
        std::string Target = toArch(Arch);
        ModuleOptions O = toOptions(Options, signatureText(Signature), Target);
        std::unique_ptr<StinkyModule> Converted;
        if (py::isinstance<KernelBody>(Tree)) {
          const KernelBody &K = Tree.cast<const KernelBody &>();
          Converted =
              unwrap(withoutGil([&] { return toStinkyTofuModule(K, Target, O.Conversion); }));
        } else {
          const Module &M = Tree.cast<const Module &>();
          Converted = unwrap(
              withoutGil([&] { return toStinkyTofuModule(M, Target, Name, O.Conversion); }));
        }
        Converted->setPipelineOptions(O.Pipeline);
        return Converted;
      },
      py::arg("module"), py::arg("arch"), py::arg("moduleName") = "",
      py::arg("signature") = py::none(), py::arg("options") = py::none());
  Top.def(
      "readAssembly",
      [](std::string Text, py::object Arch, std::string Name) {
        std::string Target = toArch(Arch);
        return unwrap(withoutGil([&] { return readStinkyModule(Text, Target, Name); }));
      },
      py::arg("text"), py::arg("arch"), py::arg("moduleName") = "");
  Top.def(
      "hasAddPCI64", [](py::object Arch) { return unwrap(hasAddPCI64(toArch(Arch))); },
      py::arg("arch"));
  Top.def(
      "targetAssembles",
      [](py::object Arch, std::string S) { return unwrap(targetAssembles(toArch(Arch), S)); },
      py::arg("arch"), py::arg("statement"));
}

} // namespace rocisa::python

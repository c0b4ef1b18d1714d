//===- BindConvert.cpp - toStinkyTofuModule and the converted module -----===//
#include "Bindings.h"
#include "rocisa-bridge/convert/TargetCaps.h"
#include "rocisa-bridge/convert/ToStinkyTofu.h"
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

ConversionOptions toOptions(py::object Options, std::string Signature) {
  ConversionOptions O;
  O.Prologue = std::move(Signature);
  if (Options.is_none())
    return O;
  for (auto [Key, Value] : Options.cast<py::dict>()) {
    std::string K = Key.cast<std::string>();
    if (K == "LabelShortBranches")
      O.LabelShortBranches = Value.cast<bool>();
    else if (K == "Prologue")
      O.Prologue += Value.cast<std::string>();
    else if (K == "Epilogue")
      O.Epilogue = Value.cast<std::string>();
    else
      throw py::value_error("unknown conversion option '" + K +
                            "' (LabelShortBranches, Prologue, Epilogue)");
  }
  return O;
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
           [](StinkyModule &M, unsigned Level) {
             check(withoutGil([&] { return M.runOptimizationPipeline(Level); }));
           },
           py::arg("level") = 2)
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
      [](py::object Tree, py::object Arch, std::string Name, std::string Signature,
         py::object Options) {
        ConversionOptions O = toOptions(Options, Signature);
        std::string Target = toArch(Arch);
        if (py::isinstance<KernelBody>(Tree)) {
          const KernelBody &K = Tree.cast<const KernelBody &>();
          return unwrap(withoutGil([&] { return toStinkyTofuModule(K, Target, O); }));
        }
        const Module &M = Tree.cast<const Module &>();
        return unwrap(withoutGil([&] { return toStinkyTofuModule(M, Target, Name, O); }));
      },
      py::arg("module"), py::arg("arch"), py::arg("moduleName") = "",
      py::arg("signature") = "", py::arg("options") = py::none());
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

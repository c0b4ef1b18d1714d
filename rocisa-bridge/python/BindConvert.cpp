//===- BindConvert.cpp - toStinkyTofuModule and the converted module -----===//
#include "Bindings.h"
#include "ModuleOptions.h"
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
      .def("optionsWithoutCounterpart", &StinkyModule::optionsWithoutCounterpart,
           "The module options given that tune a heuristic of the reference's scheduler "
           "StinkyTofu has no counterpart for: accepted, applied nowhere")
      .def("optimizationPipeline",
           [](const StinkyModule &M, std::optional<unsigned> Level) {
             return unwrap(M.optimizationPipeline(Level.value_or(M.pipelineOptions().OptLevel)));
           },
           py::arg("level") = py::none(),
           "The passes runOptimizationPipeline runs, as the options set them")
      .def("getName", &StinkyModule::getName)
      .def("numFunctions", [](const StinkyModule &M) { return M.getFunctionNames().size(); })
      .def("getFunctionNames", &StinkyModule::getFunctionNames)
      .def("hasFunction", [](const StinkyModule &M, std::string N) { return M.hasFunction(N); });

  Top.def(
      "toStinkyTofuModule",
      [](py::object Tree, py::object Arch, std::string Name, py::object Signature,
         py::object Options) {
        std::string Target = toArch(Arch);
        ModuleOptions O = toModuleOptions(Options, signatureText(Signature), Target);
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
        Converted->setPipelineOptions(std::move(O.Pipeline));
        Converted->setOptionsWithoutCounterpart(std::move(O.WithoutCounterpart));
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

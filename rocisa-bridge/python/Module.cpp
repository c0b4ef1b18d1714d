//===- Module.cpp - The _rocisa_bridge extension module -------------------===//
#include "Bindings.h"

using namespace rocisa::python;

// Submodules by rocisa's names; rocisa_bridge/__init__.py registers them as
// rocisa_bridge.code, rocisa_bridge.instruction, ...
PYBIND11_MODULE(_rocisa_bridge, M) {
  M.doc() = "rocisa's object model, long-branch builders, duplicate activation removal "
            "and conversion into StinkyTofu IR";
  py::module_ Container = M.def_submodule("container", "registers");
  py::module_ Code = M.def_submodule("code", "labels, text, modules, kernels");
  py::module_ Instruction = M.def_submodule("instruction", "instructions and builders");
  py::module_ AsmPass = M.def_submodule("asmpass", "rocIsaPass, removeDuplicatedFunction");
  bindCode(Code, Container);
  bindInstructions(Instruction);
  bindPasses(AsmPass);
  bindConvert(M);
}

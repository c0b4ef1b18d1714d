//===- BindPass.cpp - rocIsaPass and removeDuplicatedFunction ------------===//
#include "Bindings.h"
#include "rocisa-bridge/pass/RocIsaPass.h"
#include <pybind11/stl.h>

namespace rocisa::python {

void bindPasses(py::module_ &P) {
  py::class_<RocIsaPassOption>(P, "rocIsaPassOption")
      .def(py::init<>())
      .def_readwrite("insertDelayAlu", &RocIsaPassOption::insertDelayAlu)
      .def_readwrite("removeDupFunc", &RocIsaPassOption::removeDupFunc)
      .def_readwrite("removeDupAssign", &RocIsaPassOption::removeDupAssign)
      .def_readwrite("getCycles", &RocIsaPassOption::getCycles)
      .def_readwrite("numWaves", &RocIsaPassOption::numWaves)
      .def("doOpt", &RocIsaPassOption::doOpt);

  py::class_<DuplicateRemoval>(P, "DuplicateRemoval")
      .def_readonly("mergedGroups", &DuplicateRemoval::MergedGroups)
      .def_readonly("renames", &DuplicateRemoval::Renames)
      .def_readonly("removedWrappers", &DuplicateRemoval::RemovedWrappers);

  py::class_<RocIsaPassResult>(P, "rocIsaPassResult")
      .def_readonly("cycles", &RocIsaPassResult::cycles)
      .def_readonly("maxVgpr", &RocIsaPassResult::maxVgpr)
      .def_readonly("steps", &RocIsaPassResult::steps)
      .def_readonly("skipped", &RocIsaPassResult::skipped)
      .def_readonly("duplicates", &RocIsaPassResult::duplicates);

  P.def(
      "rocIsaPass",
      [](KernelBody &K, const RocIsaPassOption &O) {
        return unwrap(withoutGil([&] { return rocIsaPass(K, O); }));
      },
      py::arg("kernel"), py::arg("option"));
  P.def(
      "removeDuplicatedFunction",
      [](Module &M) { return unwrap(withoutGil([&] { return removeDuplicatedFunction(M); })); },
      py::arg("module"));
  P.def("getActFuncModuleName", &getActFuncModuleName, py::arg("gwvw"), py::arg("sgpr"),
        py::arg("tmpVgpr"), py::arg("tmpSgpr"));
  P.def("getActFuncBranchModuleName", &getActFuncBranchModuleName);
}

} // namespace rocisa::python

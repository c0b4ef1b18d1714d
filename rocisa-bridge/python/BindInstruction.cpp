//===- BindInstruction.cpp - Instructions and the long-branch builders ---===//
#include "Bindings.h"
#include "rocisa-bridge/builders/LongBranch.h"
#include "rocisa-bridge/code/Branch.h"
#include "rocisa-bridge/code/InstructionClasses.h"
#include "rocisa-bridge/convert/TargetCaps.h"
#include <pybind11/stl.h>

namespace rocisa::python {

namespace {

InstructionInput toInput(py::handle H) {
  if (py::isinstance<RegisterContainer>(H))
    return H.cast<RegisterContainer>();
  if (py::isinstance<py::bool_>(H))
    return int64_t(H.cast<bool>());
  if (py::isinstance<py::int_>(H))
    return H.cast<int64_t>();
  if (py::isinstance<py::float_>(H))
    return H.cast<double>();
  if (py::isinstance<py::str>(H))
    return H.cast<std::string>();
  throw py::type_error("an instruction operand is a register, an int, a float or a str, not " +
                       py::str(py::type::of(H)).cast<std::string>());
}

py::object fromInput(const InstructionInput &In) {
  return std::visit([](const auto &V) { return py::cast(V); }, In);
}

std::vector<InstructionInput> toInputs(const py::sequence &S) {
  std::vector<InstructionInput> Inputs;
  for (py::handle H : S)
    Inputs.push_back(toInput(H));
  return Inputs;
}

py::list fromInputs(const std::vector<InstructionInput> &Inputs) {
  py::list L;
  for (const InstructionInput &In : Inputs)
    L.append(fromInput(In));
  return L;
}

/// Whether the target has s_add_pc_i64: given, or asked of MC for \p Arch
/// (a name such as "gfx1250" or rocisa's (12, 5, 0)).
bool resolveAddPC(py::object HasAddPCI64, py::object Arch) {
  if (!HasAddPCI64.is_none())
    return HasAddPCI64.cast<bool>();
  if (Arch.is_none())
    return false;
  std::string Name;
  if (py::isinstance<py::str>(Arch)) {
    Name = Arch.cast<std::string>();
  } else {
    auto T = Arch.cast<std::tuple<int, int, int>>();
    Name = archName(std::get<0>(T), std::get<1>(T), std::get<2>(T));
  }
  return unwrap(hasAddPCI64(Name));
}

void bindBranches(py::module_ &I) {
  py::class_<BranchInstruction, Instruction, std::shared_ptr<BranchInstruction>> B(
      I, "BranchInstruction");
  B.def_readwrite("labelName", &BranchInstruction::labelName)
      .def("targetLabel", &BranchInstruction::targetLabel);
  addCopies<BranchInstruction>(B);

#define ROCISA_BRANCH(Class, Mnemonic)                                                    \
  I.def(#Class, &Class, py::arg("labelName"), py::arg("comment") = "");
#include "rocisa-bridge/code/BranchClasses.def"

  py::class_<SSetPCB64, BranchInstruction, std::shared_ptr<SSetPCB64>> Set(I, "SSetPCB64");
  Set.def(py::init<RegisterContainer, std::string>(), py::arg("src"), py::arg("comment") = "")
      .def_readwrite("src", &SSetPCB64::src)
      .def_readwrite("longBranchLabel", &SSetPCB64::longBranchLabel);
  addCopies<SSetPCB64>(Set);

  py::class_<SSwapPCB64, BranchInstruction, std::shared_ptr<SSwapPCB64>> Swap(I, "SSwapPCB64");
  Swap.def(py::init<RegisterContainer, RegisterContainer, std::string>(), py::arg("dst"),
           py::arg("src"), py::arg("comment") = "")
      .def_readwrite("dst", &SSwapPCB64::dst)
      .def_readwrite("src", &SSwapPCB64::src)
      .def_readwrite("calleeFuncs", &SSwapPCB64::calleeFuncs);
  addCopies<SSwapPCB64>(Swap);
}

void bindBuilders(py::module_ &I) {
  I.def(
      "SLongBranch",
      [](const Label &L, ContinuousRegister Tmp, std::string Positive, std::string Comment) {
        return unwrap(SLongBranch(L, Tmp, Positive, Comment));
      },
      py::arg("label"), py::arg("tmpSgprRes"), py::arg("positiveLabelStr"),
      py::arg("comment") = "");
  I.def(
      "SLongBranchPositive",
      [](const Label &L, ContinuousRegister Tmp, std::string Comment, py::object Has,
         py::object Arch) {
        return unwrap(SLongBranchPositive(L, Tmp, resolveAddPC(Has, Arch), Comment));
      },
      py::arg("label"), py::arg("tmpSgprRes"), py::arg("comment") = "",
      py::arg("hasAddPCI64") = py::none(), py::arg("arch") = py::none());
  I.def(
      "SLongBranchNegative",
      [](const Label &L, ContinuousRegister Tmp, std::string Comment) {
        return unwrap(SLongBranchNegative(L, Tmp, Comment));
      },
      py::arg("label"), py::arg("tmpSgprRes"), py::arg("comment") = "");
  I.def(
      "SGetPositivePCOffset",
      [](int Sgpr, const Label &L, ContinuousRegister Tmp) {
        return unwrap(SGetPositivePCOffset(Sgpr, L, Tmp));
      },
      py::arg("sgprIdx"), py::arg("label"), py::arg("tmpSgprRes"));
  const std::pair<const char *, LongBranchCondition> Conditional[] = {
      {"SCLongBranchScc0", LongBranchCondition::Scc0},
      {"SCLongBranchScc1", LongBranchCondition::Scc1},
      {"SCLongBranchVccnz", LongBranchCondition::Vccnz}};
  for (const auto &[Name, Cond] : Conditional)
    I.def(
        Name,
        [Cond = Cond](const Label &L, ContinuousRegister Tmp, std::string NoBranch,
                      std::string Positive, int PosNeg, std::string Comment, py::object Has,
                      py::object Arch) {
          return unwrap(SCLongBranch(Cond, L, Tmp, NoBranch, Positive, PosNeg,
                                     resolveAddPC(Has, Arch), Comment));
        },
        py::arg("label"), py::arg("tmpSgprRes"), py::arg("noBranchLabelStr"),
        py::arg("positiveLabelStr"), py::arg("posNeg") = 0, py::arg("comment") = "",
        py::arg("hasAddPCI64") = py::none(), py::arg("arch") = py::none());
}

} // namespace

void bindInstructions(py::module_ &I) {
  py::class_<Instruction, Item, std::shared_ptr<Instruction>>(I, "Instruction")
      .def_readwrite("instStr", &Instruction::instStr)
      .def_readwrite("comment", &Instruction::comment)
      .def("getParams", [](const Instruction &Inst) { return fromInputs(Inst.getParams()); });

  // Every class of InstructionClasses.def is a Python subclass of this one
  // (rocisa_bridge/instruction.py makes them from instructionClasses()).
  py::class_<CommonInstruction, Instruction, std::shared_ptr<CommonInstruction>> C(
      I, "CommonInstruction");
  C.def(py::init([](std::string Class, std::string Mnemonic, py::sequence Dsts,
                    py::sequence Srcs, std::string Comment, std::string Modifiers) {
          return std::make_shared<CommonInstruction>(Class, Mnemonic, toInputs(Dsts),
                                                     toInputs(Srcs), Comment, Modifiers);
        }),
        py::arg("className"), py::arg("instStr"), py::arg("dsts"), py::arg("srcs"),
        py::arg("comment") = "", py::arg("modifiers") = "")
      .def(py::init([](const CommonInstruction &Other) {
             return std::make_shared<CommonInstruction>(Other);
           }),
           py::arg("other"))
      .def_property(
          "dsts", [](const CommonInstruction &Inst) { return fromInputs(Inst.dsts); },
          [](CommonInstruction &Inst, py::sequence S) { Inst.dsts = toInputs(S); })
      .def_property(
          "srcs", [](const CommonInstruction &Inst) { return fromInputs(Inst.srcs); },
          [](CommonInstruction &Inst, py::sequence S) { Inst.srcs = toInputs(S); })
      .def_readwrite("modifiers", &CommonInstruction::modifiers);

  py::list Classes;
  for (const InstructionClass &IC : instructionClasses())
    Classes.append(py::make_tuple(IC.Name.str(), IC.Mnemonic.str(), IC.NumDsts));
  I.attr("instructionClasses") = Classes;

  I.def(
      "SWaitCnt",
      [](int Lgkmcnt, int Vmcnt, int, std::string Comment) {
        return makeSWaitCnt(Lgkmcnt, Vmcnt, Comment);
      },
      py::arg("lgkmcnt") = -1, py::arg("vmcnt") = -1, py::arg("vscnt") = -1,
      py::arg("comment") = "");

  bindBranches(I);
  bindBuilders(I);
}

} // namespace rocisa::python

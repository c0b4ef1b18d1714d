//===- BindCode.cpp - Items, labels, modules, kernels, registers ---------===//
#include "Bindings.h"
#include "rocisa-bridge/code/KernelBody.h"
#include "rocisa-bridge/code/Label.h"
#include "rocisa-bridge/code/Module.h"
#include "rocisa-bridge/code/Operand.h"
#include "rocisa-bridge/code/TextItems.h"
#include <pybind11/stl.h>

namespace rocisa::python {

namespace {

void bindRegisters(py::module_ &Container) {
  py::class_<RegisterContainer>(Container, "RegisterContainer")
      .def(py::init<std::string, int, int>(), py::arg("regType"), py::arg("regIdx"),
           py::arg("regNum") = 1)
      .def(py::init<std::string, std::string, int, int>(), py::arg("regType"),
           py::arg("regName"), py::arg("regNum") = 1, py::arg("offset") = 0)
      .def_readwrite("regType", &RegisterContainer::regType)
      .def_readwrite("regName", &RegisterContainer::regName)
      .def_readwrite("regIdx", &RegisterContainer::regIdx)
      .def_readwrite("regNum", &RegisterContainer::regNum)
      .def("__str__", &RegisterContainer::toString)
      .def("__eq__", &RegisterContainer::operator==)
      .def("__deepcopy__", [](const RegisterContainer &R, py::dict) { return R; });
  const std::pair<const char *, const char *> Files[] = {
      {"s", "sgpr"}, {"v", "vgpr"}, {"a", "accvgpr"}};
  for (const auto &[Type, Name] : Files) {
    Container.def(
        Name,
        [Type = Type](py::object Index, int Count) {
          if (py::isinstance<py::str>(Index))
            return RegisterContainer(Type, Index.cast<std::string>(), Count);
          return RegisterContainer(Type, Index.cast<int>(), Count);
        },
        py::arg("idx"), py::arg("num") = 1);
  }
  py::class_<ContinuousRegister>(Container, "ContinuousRegister")
      .def(py::init([](int Idx, int Size) { return ContinuousRegister{Idx, Size}; }),
           py::arg("idx"), py::arg("size"))
      .def_readwrite("idx", &ContinuousRegister::idx)
      .def_readwrite("size", &ContinuousRegister::size);
}

void bindModule(py::module_ &Code) {
  py::class_<Module, Item, std::shared_ptr<Module>> C(Code, "Module");
  C.def(py::init<std::string>(), py::arg("name") = "")
      .def_readwrite("isCallable", &Module::isCallable)
      .def_readwrite("callableName", &Module::callableName)
      .def("add", &Module::add, py::arg("item"), py::arg("pos") = -1)
      .def("addItems", &Module::addItems)
      .def("appendModule", &Module::appendModule)
      .def("addModuleAsFlatItems", &Module::addModuleAsFlatItems)
      .def("addComment", &Module::addComment)
      .def("addCommentAlign", &Module::addCommentAlign)
      .def("addComment0", &Module::addComment0)
      .def("addComment1", &Module::addComment1)
      .def("addComment2", &Module::addComment2)
      .def("addSpaceLine", &Module::addSpaceLine)
      .def("items", &Module::items)
      .def("flatitems", &Module::flatitems)
      .def("itemsSize", &Module::itemsSize)
      .def("count", &Module::count)
      .def("findNamedItem", &Module::findNamedItem)
      .def("findIndex", &Module::findIndex)
      .def("getItem",
           [](const Module &M, size_t I) {
             llvm::Expected<ItemPtr> Item = M.getItem(I);
             if (!Item)
               throw py::index_error(llvm::toString(Item.takeError()));
             return *Item;
           })
      .def("setItem",
           [](Module &M, size_t I, ItemPtr Item) {
             if (llvm::Error E = M.setItem(I, std::move(Item)))
               throw py::index_error(llvm::toString(std::move(E)));
           })
      .def("setItems", &Module::setItems)
      .def("replaceItem", &Module::replaceItem)
      .def("removeItem", &Module::removeItem)
      .def("removeItemsByName", &Module::removeItemsByName)
      .def("popFirstItem", &Module::popFirstItem)
      .def("setNoOpt", &Module::setNoOpt)
      .def("isNoOpt", &Module::isNoOpt);
  addCopies<Module>(C);
}

} // namespace

void bindCode(py::module_ &Code, py::module_ &Container) {
  bindRegisters(Container);

  py::class_<Item, std::shared_ptr<Item>>(Code, "Item")
      .def_readwrite("name", &Item::name)
      .def("__str__", &Item::toString)
      .def("className", &Item::className);

  py::class_<Label, Item, std::shared_ptr<Label>> L(Code, "Label");
  L.def(py::init([](py::object Name, std::string Comment, int Alignment) {
          std::string Text = py::isinstance<py::str>(Name) ? Name.cast<std::string>()
                                                           : std::to_string(Name.cast<int>());
          return std::make_shared<Label>(Text, Comment, Alignment);
        }),
        py::arg("label"), py::arg("comment") = "", py::arg("alignment") = 1)
      .def_readwrite("label", &Label::label)
      .def_readwrite("comment", &Label::comment)
      .def_readwrite("alignment", &Label::alignment)
      .def("getLabelName", &Label::getLabelName);
  addCopies<Label>(L);

  py::class_<TextBlock, Item, std::shared_ptr<TextBlock>> T(Code, "TextBlock");
  T.def(py::init<std::string>()).def_readwrite("text", &TextBlock::text);
  addCopies<TextBlock>(T);

  py::class_<ValueSet, Item, std::shared_ptr<ValueSet>> V(Code, "ValueSet");
  V.def(py::init([](std::string Name, py::object Value, std::string Comment) {
          std::string Text = py::isinstance<py::str>(Value)
                                 ? Value.cast<std::string>()
                                 : std::to_string(Value.cast<long long>());
          return std::make_shared<ValueSet>(Name, Text, Comment);
        }),
        py::arg("name"), py::arg("value"), py::arg("comment") = "")
      .def_readwrite("value", &ValueSet::value);
  addCopies<ValueSet>(V);

  py::class_<ValueIf, Item, std::shared_ptr<ValueIf>>(Code, "ValueIf").def(py::init<std::string>());
  py::class_<ValueElseIf, Item, std::shared_ptr<ValueElseIf>>(Code, "ValueElseIf")
      .def(py::init<std::string>());
  py::class_<ValueEndif, Item, std::shared_ptr<ValueEndif>>(Code, "ValueEndif").def(py::init<>());
  py::class_<Macro, Item, std::shared_ptr<Macro>>(Code, "Macro")
      .def(py::init([](std::string Name, py::args Args) {
        std::vector<std::string> Params;
        for (py::handle A : Args)
          Params.push_back(py::str(A).cast<std::string>());
        return std::make_shared<Macro>(Name, Params);
      }))
      .def("add", [](Macro &M, py::object Line) { M.add(py::str(Line).cast<std::string>()); });

  bindModule(Code);

  py::class_<KernelBody, Item, std::shared_ptr<KernelBody>> K(Code, "KernelBody");
  K.def(py::init<std::string>())
      .def_readwrite("signature", &KernelBody::signature)
      .def_readwrite("body", &KernelBody::body)
      .def_readwrite("totalVgprs", &KernelBody::totalVgprs)
      .def_readwrite("totalAgprs", &KernelBody::totalAgprs)
      .def_readwrite("totalSgprs", &KernelBody::totalSgprs)
      .def("addSignature", &KernelBody::addSignature)
      .def("addBody", &KernelBody::addBody)
      .def("setGprs", &KernelBody::setGprs, py::arg("totalVgprs"), py::arg("totalAgprs"),
           py::arg("totalSgprs"));
  addCopies<KernelBody>(K);
}

} // namespace rocisa::python

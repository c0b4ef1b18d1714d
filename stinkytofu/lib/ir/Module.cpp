//===- Module.cpp - A whole assembly file as Asm IR -----------------------===//
#include "stinkytofu/ir/Module.h"
#include <algorithm>
#include <cassert>

namespace stinkytofu {

Module::Module(std::string Name, std::shared_ptr<const TargetInfo> Target)
    : Name(std::move(Name)), Target(std::move(Target)) {}

Module::~Module() {
  // Functions reference text owned by the assembler state: drop them first.
  Functions.clear();
  Items.clear();
}

ModuleAssembler::~ModuleAssembler() = default;

void Module::setAssembler(std::unique_ptr<ModuleAssembler> A) { Assembler = std::move(A); }

void Module::appendText(TextKind K, llvm::StringRef Text) {
  if (Text.empty())
    return;
  Items.push_back({ModuleItem::Kind::Text, K, Text, nullptr});
}

Function &Module::appendFunction(std::string FnName, bool IsEntry) {
  return insertFunctionAfter(Items.size() - 1, std::move(FnName), IsEntry);
}

Function &Module::insertFunctionAfter(size_t ItemIndex, std::string FnName,
                                      bool IsEntry) {
  // Keep Functions in the same relative order as the items.
  size_t Position = ItemIndex + 1;
  size_t Before = 0;
  for (size_t I = 0; I < Position && I < Items.size(); ++I)
    if (Items[I].K == ModuleItem::Kind::Function)
      ++Before;
  auto It = Functions.begin();
  std::advance(It, Before);
  Function &F = *Functions.emplace(It, std::move(FnName), IsEntry);
  F.setParent(this);
  ModuleItem Item{ModuleItem::Kind::Function, TextKind::Directive, {}, &F};
  Items.insert(Items.begin() + std::min(Position, Items.size()), Item);
  return F;
}

Function &Module::splitFunction(Function &F, BasicBlock &At, std::string FnName) {
  size_t ItemIndex = 0;
  while (ItemIndex < Items.size() && Items[ItemIndex].Func != &F)
    ++ItemIndex;
  assert(ItemIndex < Items.size() && "function not in this module");
  assert(&F.blocks().front() != &At && "splitting at the first block");
  Function &New = insertFunctionAfter(ItemIndex, std::move(FnName), /*IsEntry=*/false);
  New.spliceBlocks(New.blocks().end(), F, At.getIterator(), F.blocks().end());
  F.renumberBlocks();
  New.renumberBlocks();
  return New;
}

Function *Module::entry() {
  for (Function &F : Functions)
    if (F.isEntry())
      return &F;
  return Functions.empty() ? nullptr : &Functions.front();
}

const Function *Module::entry() const { return const_cast<Module *>(this)->entry(); }

std::vector<const Function *> Module::functionsInPrintOrder() const {
  std::vector<const Function *> Order;
  const Function *E = entry();
  if (E)
    Order.push_back(E);
  for (const Function &F : Functions)
    if (&F != E)
      Order.push_back(&F);
  return Order;
}

Function *Module::findFunction(llvm::StringRef FnName) {
  for (Function &F : Functions)
    if (F.name() == FnName)
      return &F;
  return nullptr;
}

llvm::StringRef Module::resolveAlias(llvm::StringRef Symbol) const {
  // Bounded: a `.set` cycle is not a label.
  for (unsigned Hops = 0; Hops < 64; ++Hops) {
    auto It = Aliases.find(Symbol);
    if (It == Aliases.end())
      return Symbol;
    Symbol = It->second;
  }
  return Symbol;
}

} // namespace stinkytofu

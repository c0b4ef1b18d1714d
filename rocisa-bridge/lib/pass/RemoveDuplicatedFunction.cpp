//===- RemoveDuplicatedFunction.cpp - One body per activation group -----===//
#include "rocisa-bridge/pass/RemoveDuplicatedFunction.h"
#include "rocisa-bridge/code/Branch.h"
#include "rocisa-bridge/code/InstructionClasses.h"
#include "rocisa-bridge/code/Label.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>

using namespace llvm;

namespace rocisa {

std::string getActFuncModuleName(int Gwvw, int Sgpr, int TmpVgpr, int TmpSgpr) {
  return "ActFunc_VW" + std::to_string(Gwvw) + "_Sgpr" + std::to_string(Sgpr) + "_Tmp" +
         std::to_string(TmpVgpr) + "_" + std::to_string(TmpSgpr);
}

std::string getActFuncBranchModuleName() { return "InsertActFuncCallAddrCalc"; }

namespace {

using ModulePtr = std::shared_ptr<Module>;

/// Wrappers by name, names in order of first appearance; a wrapper's
/// children are not searched.
struct WrapperGroups {
  std::vector<std::string> Order;
  StringMap<std::vector<ModulePtr>> ByName;
};

void collectWrappers(const Module &M, WrapperGroups &G) {
  for (const ItemPtr &I : M.itemList) {
    auto Child = std::dynamic_pointer_cast<Module>(I);
    if (!Child)
      continue;
    if (StringRef(Child->name).contains("ActFunc_VW")) {
      auto [It, New] = G.ByName.try_emplace(Child->name);
      if (New)
        G.Order.push_back(Child->name);
      It->second.push_back(Child);
      continue;
    }
    collectWrappers(*Child, G);
  }
}

/// The label that starts each callable body of \p Wrapper, in order.
Expected<std::vector<std::string>> bodyLabels(const Module &Wrapper) {
  std::vector<std::string> Labels;
  for (const ItemPtr &I : Wrapper.itemList) {
    const auto *Body = dynamic_cast<const Module *>(I.get());
    if (!Body || !Body->isCallable)
      continue;
    const Label *First =
        Body->itemList.empty() ? nullptr : dynamic_cast<const Label *>(Body->itemList[0].get());
    if (!First)
      return createStringError(inconvertibleErrorCode(),
                               "callable body '" + Body->name + "' of '" + Wrapper.name +
                                   "' does not start with its label");
    Labels.push_back(First->getLabelName());
  }
  return Labels;
}

void removeWrappers(Module &M, const DenseSet<const Item *> &Doomed) {
  std::erase_if(M.itemList, [&](const ItemPtr &I) { return Doomed.contains(I.get()); });
  for (const ItemPtr &I : M.itemList)
    if (auto *Child = dynamic_cast<Module *>(I.get()))
      removeWrappers(*Child, Doomed);
}

void renameInput(InstructionInput &In, const StringMap<std::string> &Renames) {
  if (auto *S = std::get_if<std::string>(&In))
    if (auto It = Renames.find(*S); It != Renames.end())
      *S = It->second;
}

/// Applies \p Renames to every instruction below \p M.
void applyRenames(const Module &M, const StringMap<std::string> &Renames) {
  M.walk([&](const ItemPtr &I) {
    if (auto *Call = dynamic_cast<SSwapPCB64 *>(I.get())) {
      std::vector<std::string> Callees;
      StringSet<> Seen;
      for (const std::string &Callee : Call->calleeFuncs) {
        auto It = Renames.find(Callee);
        const std::string &Name = It == Renames.end() ? Callee : It->second;
        // Two deleted callees can map to one kept body: list it once.
        if (Seen.insert(Name).second)
          Callees.push_back(Name);
      }
      Call->calleeFuncs = std::move(Callees);
    } else if (auto *Branch = dynamic_cast<BranchInstruction *>(I.get())) {
      if (auto It = Renames.find(Branch->labelName); It != Renames.end())
        Branch->labelName = It->second;
    } else if (auto *Inst = dynamic_cast<CommonInstruction *>(I.get())) {
      for (InstructionInput &In : Inst->dsts)
        renameInput(In, Renames);
      for (InstructionInput &In : Inst->srcs)
        renameInput(In, Renames);
    }
    return true;
  });
}

} // namespace

Expected<DuplicateRemoval> removeDuplicatedFunction(Module &Body) {
  WrapperGroups Groups;
  collectWrappers(Body, Groups);

  DuplicateRemoval Result;
  DenseSet<const Item *> Doomed;
  StringMap<std::string> Renames;
  auto Kept = std::make_shared<Module>("AddToLast");
  // Everything is checked before the tree changes.
  for (const std::string &Name : Groups.Order) {
    const std::vector<ModulePtr> &Wrappers = Groups.ByName[Name];
    if (Wrappers.size() < 2)
      continue;
    Expected<std::vector<std::string>> KeptLabels = bodyLabels(*Wrappers.front());
    if (!KeptLabels)
      return KeptLabels.takeError();
    for (size_t W = 1; W < Wrappers.size(); ++W) {
      Expected<std::vector<std::string>> Labels = bodyLabels(*Wrappers[W]);
      if (!Labels)
        return Labels.takeError();
      if (Labels->size() != KeptLabels->size())
        return createStringError(inconvertibleErrorCode(),
                                 "duplicate '" + Name + "' wrappers hold " +
                                     Twine(KeptLabels->size()) + " and " +
                                     Twine(Labels->size()) + " callable bodies");
      for (size_t K = 0; K < Labels->size(); ++K)
        if ((*Labels)[K] != (*KeptLabels)[K] &&
            Renames.try_emplace((*Labels)[K], (*KeptLabels)[K]).second)
          Result.Renames.emplace_back((*Labels)[K], (*KeptLabels)[K]);
    }
    for (const ModulePtr &W : Wrappers)
      Doomed.insert(W.get());
    Kept->add(Wrappers.front());
    Result.MergedGroups.push_back(Name);
    Result.RemovedWrappers += unsigned(Wrappers.size() - 1);
  }
  if (Result.MergedGroups.empty())
    return Result;

  removeWrappers(Body, Doomed);
  applyRenames(Body, Renames);
  Body.add(Kept);
  Expected<std::shared_ptr<CommonInstruction>> End = makeInstruction("SEndpgm", {});
  cantFail(End.takeError());
  Body.add(*End);
  return Result;
}

} // namespace rocisa

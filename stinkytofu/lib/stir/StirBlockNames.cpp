//===- StirBlockNames.cpp - Function-scoped block names in `.stir` --------===//
#include "stinkytofu/stir/StirBlockNames.h"
#include "stinkytofu/stir/StirWriter.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// A `mod.label` whose label is renamed gets the new one; its other fields
/// stay in place.
void renameLabelModifier(StirModifier &Mod, const StringMap<std::string> &Renamed) {
  if (Mod.Key != "label")
    return;
  const AttrValue *Label = Mod.Attrs.find("label");
  if (!Label || Label->kind() != AttrValue::Kind::String)
    return;
  auto It = Renamed.find(Label->asString());
  if (It == Renamed.end())
    return;
  AttrDict Updated;
  for (const auto &[Key, Value] : Mod.Attrs.entries())
    Updated.add(Key, Key == "label" ? AttrValue::string(It->second) : Value);
  Mod.Attrs = std::move(Updated);
}

} // namespace

void scopeBlockNames(StirModule &M) {
  // Every name a block of the file has, so that a new one collides with none.
  StringSet<> Taken;
  for (const StirFunc &F : M.Funcs)
    for (const StirBlock &BB : F.Blocks)
      if (!isSyntheticBlockName(BB.Name))
        Taken.insert(BB.Name);
  StringSet<> UsedBefore;
  for (StirFunc &F : M.Funcs) {
    StringMap<std::string> Renamed;
    std::vector<std::string> Kept;
    StringMap<unsigned> Count;
    for (const StirBlock &BB : F.Blocks)
      ++Count[BB.Name];
    for (StirBlock &BB : F.Blocks) {
      if (isSyntheticBlockName(BB.Name) || BB.Attrs.find("asm"))
        continue; // no label, or a label spelled by its own text
      // A name twice in one function stays: the assembler reports it.
      if (!UsedBefore.contains(BB.Name) || Count[BB.Name] > 1) {
        Kept.push_back(BB.Name);
        continue;
      }
      std::string Name = F.Name + "." + BB.Name;
      for (unsigned N = 1; Taken.contains(Name); ++N)
        Name = F.Name + "." + BB.Name + "." + std::to_string(N);
      Taken.insert(Name);
      Kept.push_back(Name);
      Renamed[BB.Name] = Name;
      BB.Name = std::move(Name);
    }
    for (const std::string &Name : Kept)
      UsedBefore.insert(Name);
    if (Renamed.empty())
      continue;
    for (StirBlock &BB : F.Blocks) {
      for (std::string &Succ : BB.Successors)
        if (auto It = Renamed.find(Succ); It != Renamed.end())
          Succ = It->second;
      for (StirInst &I : BB.Insts) {
        for (StirOperand &Op : I.Uses)
          if (auto It = Renamed.find(Op.Text); It != Renamed.end())
            Op.Text = It->second;
        for (StirModifier &Mod : I.Mods)
          renameLabelModifier(Mod, Renamed);
      }
    }
  }
}

} // namespace stinkytofu

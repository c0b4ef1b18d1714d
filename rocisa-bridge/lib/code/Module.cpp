//===- Module.cpp - Nested rocisa modules --------------------------------===//
#include "rocisa-bridge/code/Module.h"
#include "rocisa-bridge/code/Instruction.h"
#include "rocisa-bridge/code/TextItems.h"
#include <algorithm>

using namespace llvm;

namespace rocisa {

namespace {
Error indexError(size_t Index, size_t Size) {
  return createStringError(inconvertibleErrorCode(),
                           "index " + Twine(Index) + " out of range (the module has " +
                               Twine(Size) + " items)");
}
} // namespace

Module::Module(const Module &Other)
    : Item(Other), isCallable(Other.isCallable), callableName(Other.callableName),
      noOpt(Other.noOpt) {
  itemList.reserve(Other.itemList.size());
  for (const ItemPtr &I : Other.itemList)
    itemList.push_back(I->clone());
}

std::string Module::toString() const {
  std::string Text;
  for (const ItemPtr &I : itemList)
    Text += I->toString();
  return Text;
}

ItemPtr Module::add(ItemPtr I, int Pos) {
  if (!I)
    return I;
  if (Pos < 0 || size_t(Pos) >= itemList.size())
    itemList.push_back(I);
  else
    itemList.insert(itemList.begin() + Pos, I);
  return I;
}

void Module::addItems(const std::vector<ItemPtr> &Items) {
  for (const ItemPtr &I : Items)
    add(I);
}

std::shared_ptr<Module> Module::appendModule(const std::shared_ptr<Module> &M) {
  addItems(M->itemList);
  return M;
}

std::shared_ptr<Module> Module::addModuleAsFlatItems(const std::shared_ptr<Module> &M) {
  addItems(M->flatitems());
  return M;
}

void Module::addComment(const std::string &C) {
  add(std::make_shared<TextBlock>("// " + C + "\n"));
}
void Module::addCommentAlign(const std::string &C) {
  add(std::make_shared<TextBlock>(formatLine("", C)));
}
void Module::addComment0(const std::string &C) {
  add(std::make_shared<TextBlock>("/* " + C + " */\n"));
}
void Module::addComment1(const std::string &C) {
  add(std::make_shared<TextBlock>("\n/* " + C + " */\n"));
}
void Module::addComment2(const std::string &C) {
  const std::string Rule = "/******************************************/\n";
  std::string Text = "\n" + Rule;
  size_t Start = 0;
  while (Start <= C.size()) {
    size_t End = C.find('\n', Start);
    std::string Line = C.substr(Start, End == std::string::npos ? std::string::npos : End - Start);
    if (Line.size() < 38)
      Line.append(38 - Line.size(), ' ');
    Text += "/* " + Line + " */\n";
    if (End == std::string::npos)
      break;
    Start = End + 1;
  }
  add(std::make_shared<TextBlock>(Text + Rule));
}
void Module::addSpaceLine() { add(std::make_shared<TextBlock>("\n")); }

std::vector<ItemPtr> Module::flatitems() const {
  std::vector<ItemPtr> Leaves;
  walk([&](const ItemPtr &I) {
    if (!dynamic_cast<const Module *>(I.get()))
      Leaves.push_back(I);
    return true;
  });
  return Leaves;
}

size_t Module::count() const { return flatitems().size(); }

ItemPtr Module::findNamedItem(const std::string &Name) const {
  auto It = std::find_if(itemList.begin(), itemList.end(),
                         [&](const ItemPtr &I) { return I->name == Name; });
  return It == itemList.end() ? nullptr : *It;
}

int Module::findIndex(const ItemPtr &I) const {
  auto It = std::find(itemList.begin(), itemList.end(), I);
  return It == itemList.end() ? -1 : int(It - itemList.begin());
}

Expected<ItemPtr> Module::getItem(size_t Index) const {
  if (Index >= itemList.size())
    return indexError(Index, itemList.size());
  return itemList[Index];
}

Error Module::setItem(size_t Index, ItemPtr I) {
  if (Index >= itemList.size())
    return indexError(Index, itemList.size());
  itemList[Index] = std::move(I);
  return Error::success();
}

bool Module::replaceItem(const ItemPtr &From, ItemPtr To) {
  int Index = findIndex(From);
  if (Index < 0)
    return false;
  itemList[Index] = std::move(To);
  return true;
}

Error Module::replaceItemByIndex(size_t Index, ItemPtr To) { return setItem(Index, std::move(To)); }

bool Module::removeItem(const ItemPtr &I) {
  int Index = findIndex(I);
  if (Index < 0)
    return false;
  itemList.erase(itemList.begin() + Index);
  return true;
}

Error Module::removeItemByIndex(size_t Index) {
  if (Index >= itemList.size())
    return indexError(Index, itemList.size());
  itemList.erase(itemList.begin() + Index);
  return Error::success();
}

size_t Module::removeItemsByName(const std::string &Name) {
  size_t Before = itemList.size();
  std::erase_if(itemList, [&](const ItemPtr &I) { return I->name == Name; });
  return Before - itemList.size();
}

ItemPtr Module::popFirstItem() {
  if (itemList.empty())
    return nullptr;
  ItemPtr First = itemList.front();
  itemList.erase(itemList.begin());
  return First;
}

std::vector<ItemPtr> Module::popFirstItems(size_t N) {
  N = std::min(N, itemList.size());
  std::vector<ItemPtr> First(itemList.begin(), itemList.begin() + N);
  itemList.erase(itemList.begin(), itemList.begin() + N);
  return First;
}

void Module::walk(const std::function<bool(const ItemPtr &)> &Visit) const {
  for (const ItemPtr &I : itemList) {
    bool Descend = Visit(I);
    if (const auto *M = dynamic_cast<const Module *>(I.get()); M && Descend)
      M->walk(Visit);
  }
}

} // namespace rocisa

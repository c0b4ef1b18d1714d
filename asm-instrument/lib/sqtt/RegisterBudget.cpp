//===- RegisterBudget.cpp - SGPRs the inserted code may take --------------===//
#include "asm-instrument/sqtt/RegisterBudget.h"
#include "stinkytofu/analysis/RegisterUsage.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/KernelDescriptor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu::sqtt {

std::optional<unsigned> kernelNextFreeSGPR(const Module &M, StringRef Name) {
  std::optional<KernelDescriptor> D = KernelDescriptor::find(M, Name);
  std::optional<uint64_t> N = D ? D->integer(".amdhsa_next_free_sgpr") : std::nullopt;
  if (!N || *N > UINT_MAX)
    return std::nullopt;
  return unsigned(*N);
}

SGPRBudget sgprBudget(const Function &F, bool AllowGrowth) {
  const Module &M = *F.parent();
  unsigned Max = M.target().hardware().maxSGPRs();
  unsigned Used = namedSGPRCount(F);
  SGPRBudget B;
  B.Budget = std::min(Used, Max);
  std::optional<unsigned> Declared;
  if (F.isEntry())
    Declared = kernelNextFreeSGPR(M, F.name());
  if (Declared)
    B.Budget = std::min(std::max(B.Budget, *Declared), Max);
  B.Limit = B.Budget;
  // Only a kernel whose descriptor states its count can grow, and only if
  // that count covers what the code uses.
  if (AllowGrowth && Declared && *Declared >= Used)
    B.Limit = Max;
  return B;
}

Error growKernelSGPRs(Module &M, StringRef Name, unsigned NewCount) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "kernel '" + Name + "' needs " +
                                 Twine(NewCount) + " SGPRs for the inserted code, but " + Why);
  };
  std::optional<KernelDescriptor> D = KernelDescriptor::find(M, Name);
  if (!D)
    return Fail("its kernel descriptor was not found");
  std::optional<uint64_t> Old = D->integer(".amdhsa_next_free_sgpr");
  if (!Old)
    return Fail("its .amdhsa_next_free_sgpr is not a number");
  if (NewCount > M.target().hardware().maxSGPRs())
    return Fail("the target has " + Twine(M.target().hardware().maxSGPRs()));
  if (NewCount <= *Old)
    return Error::success();
  unsigned Delta = NewCount - *Old;

  // The metadata's .sgpr_count of the same kernel, if there is metadata.
  std::optional<std::pair<size_t, std::pair<size_t, unsigned>>> Meta; // item, offset, value
  for (size_t N = 0; N < M.items().size() && !Meta; ++N) {
    const ModuleItem &Item = M.items()[N];
    if (Item.K != ModuleItem::Kind::Text)
      continue;
    StringRef T = Item.Contents;
    size_t List = T.find("amdhsa.kernels:");
    if (List == StringRef::npos)
      continue;
    // Kernel entries are the list items with the smallest indentation
    // after `amdhsa.kernels:`; `.name` and `.sgpr_count` are their keys.
    SmallVector<StringRef, 64> Lines;
    T.substr(List).split(Lines, '\n');
    size_t EntryIndent = StringRef::npos;
    for (StringRef L : drop_begin(Lines)) {
      StringRef Trim = L.ltrim(" ");
      if (Trim.starts_with("- ")) {
        EntryIndent = L.size() - Trim.size();
        break;
      }
    }
    if (EntryIndent == StringRef::npos)
      continue;
    size_t Offset = List + Lines[0].size() + 1;
    bool InKernel = false;
    std::optional<std::pair<size_t, unsigned>> Count;
    bool Done = false;
    for (StringRef L : drop_begin(Lines)) {
      size_t LineAt = Offset;
      Offset += L.size() + 1;
      StringRef Trim = L.ltrim(" ");
      size_t Indent = L.size() - Trim.size();
      if (!Trim.empty() && Indent < EntryIndent)
        break; // the end of the kernel list
      if (Indent == EntryIndent && Trim.starts_with("- ")) {
        if (InKernel && Count) {
          Done = true;
          break;
        }
        InKernel = false;
        Count.reset();
        Trim = Trim.drop_front(2).ltrim(" ");
        Indent = EntryIndent + 2;
        LineAt += L.size() - Trim.size();
      } else {
        LineAt += Indent;
      }
      if (Indent != EntryIndent + 2)
        continue;
      if (Trim.starts_with(".name:")) {
        StringRef KName = Trim.drop_front(6).trim().trim("'\"");
        InKernel = KName == Name;
      } else if (Trim.starts_with(".sgpr_count:")) {
        StringRef Num = Trim.drop_front(12);
        size_t Lead = Num.size() - Num.ltrim(" ").size();
        Num = Num.ltrim(" ").take_while([](char C) { return isDigit(C); });
        unsigned Value;
        if (!Num.getAsInteger(10, Value))
          Count = std::make_pair(LineAt + 12 + Lead, Value);
      }
    }
    if ((Done || InKernel) && InKernel && Count)
      Meta = std::make_pair(N, *Count);
  }

  // Rewrite the descriptor (and the metadata) with the new numbers.
  if (Error E = D->setInteger(M, ".amdhsa_next_free_sgpr", NewCount))
    return E;
  if (Meta) {
    auto &[Item, Pos] = *Meta;
    StringRef T = M.items()[Item].Contents;
    std::string Old = std::to_string(Pos.second);
    std::string NewMeta =
        (T.take_front(Pos.first) + Twine(Pos.second + Delta) + T.substr(Pos.first + Old.size()))
            .str();
    M.items()[Item].Contents = M.save(NewMeta);
  }
  return Error::success();
}

} // namespace stinkytofu::sqtt

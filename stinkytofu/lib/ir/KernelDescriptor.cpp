//===- KernelDescriptor.cpp - A kernel's .amdhsa_kernel block, typed ------===//
#include "stinkytofu/ir/KernelDescriptor.h"
#include "stinkytofu/ir/StatementText.h"

using namespace llvm;

namespace stinkytofu {

std::vector<KernelDescriptor> KernelDescriptor::parse(const Module &M, size_t Item) {
  std::vector<KernelDescriptor> Out;
  StringRef Text = M.items()[Item].Contents;
  KernelDescriptor *Open = nullptr;
  size_t LineAt = 0;
  for (unsigned Line = 0; LineAt < Text.size(); ++Line) {
    size_t End = Text.find('\n', LineAt);
    StringRef Whole = Text.slice(LineAt, End == StringRef::npos ? Text.size() : End);
    size_t Start = LineAt;
    LineAt = End == StringRef::npos ? Text.size() : End + 1;
    StringRef Code = Whole.take_front(findComment(Whole));
    Statement S = splitStatement(Code);
    std::string Directive = S.Mnemonic.lower();
    if (Directive == ".amdhsa_kernel") {
      Out.push_back(KernelDescriptor());
      Open = &Out.back();
      Open->Mod = &M;
      Open->Item = Item;
      Open->Kernel = S.Body.str();
      continue;
    }
    if (!Open)
      continue;
    if (Directive == ".end_amdhsa_kernel") {
      Open = nullptr;
      continue;
    }
    if (!StringRef(Directive).starts_with(".amdhsa_") || S.Body.empty())
      continue;
    // S.Body is a piece of Whole: its offset there is where the value is.
    size_t ValueAt = Start + (S.Body.data() - Whole.data());
    Open->Fields.push_back({Directive, S.Body.str(), ValueAt, Line});
  }
  return Out;
}

std::vector<KernelDescriptor> KernelDescriptor::all(const Module &M) {
  std::vector<KernelDescriptor> Out;
  for (size_t N = 0; N < M.items().size(); ++N) {
    const ModuleItem &I = M.items()[N];
    if (I.K == ModuleItem::Kind::Text && I.Contents.contains_insensitive(".amdhsa_kernel"))
      for (KernelDescriptor &D : parse(M, N))
        Out.push_back(std::move(D));
  }
  return Out;
}

std::optional<KernelDescriptor> KernelDescriptor::find(const Module &M, StringRef Name) {
  for (KernelDescriptor &D : all(M))
    if (D.Kernel == Name)
      return std::move(D);
  return std::nullopt;
}

const KernelDescriptor::Field *KernelDescriptor::field(StringRef Key) const {
  for (const Field &F : Fields)
    if (F.Key == Key)
      return &F;
  return nullptr;
}

std::optional<uint64_t> KernelDescriptor::integer(StringRef Key) const {
  const Field *F = field(Key);
  uint64_t V;
  if (!F || StringRef(F->Value).getAsInteger(0, V))
    return std::nullopt;
  return V;
}

Error KernelDescriptor::set(Module &M, StringRef Key, StringRef Value) {
  if (&M != Mod)
    return createStringError(inconvertibleErrorCode(),
                             "kernel descriptor of '" + Kernel + "' set in another module");
  auto It = llvm::find_if(Fields, [&](const Field &F) { return F.Key == Key; });
  if (It == Fields.end())
    return createStringError(inconvertibleErrorCode(),
                             "the kernel descriptor of '" + Kernel + "' has no " + Key);
  StringRef Text = M.items()[Item].Contents;
  size_t Old = It->Value.size();
  M.items()[Item].Contents =
      M.save((Text.take_front(It->Offset) + Value + Text.substr(It->Offset + Old)).str());
  // Fields after it, in this descriptor, moved by the difference.
  for (Field &F : Fields)
    if (F.Offset > It->Offset)
      F.Offset = F.Offset + Value.size() - Old;
  It->Value = Value.str();
  return Error::success();
}

} // namespace stinkytofu

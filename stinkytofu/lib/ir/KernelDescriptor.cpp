//===- KernelDescriptor.cpp - A kernel's .amdhsa_kernel block, typed ------===//
#include "stinkytofu/ir/KernelDescriptor.h"
#include "stinkytofu/ir/StatementText.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace stinkytofu {

StringRef KernelDescriptor::key(Count C) {
  switch (C) {
  case Count::NextFreeVGPR: return ".amdhsa_next_free_vgpr";
  case Count::NextFreeSGPR: return ".amdhsa_next_free_sgpr";
  case Count::AccumOffset: return ".amdhsa_accum_offset";
  }
  llvm_unreachable("unknown descriptor count");
}

bool KernelDescriptor::reservesVCC() const {
  return integer(".amdhsa_reserve_vcc").value_or(1) != 0;
}

bool KernelDescriptor::reservesXnackMask() const {
  return integer(".amdhsa_reserve_xnack_mask").value_or(1) != 0;
}

bool KernelDescriptor::reservesFlatScratch() const {
  return integer(".amdhsa_reserve_flat_scratch").value_or(1) != 0;
}

uint64_t KernelDescriptor::ldsBytes() const {
  return integer(".amdhsa_group_segment_fixed_size").value_or(0);
}

bool KernelDescriptor::wave64() const { return integer(".amdhsa_wavefront_size32") == 0u; }

bool KernelDescriptor::cuMode() const {
  return integer(".amdhsa_workgroup_processor_mode") == 0u;
}

Error KernelDescriptor::setInstPrefSize(Module &M, uint64_t Lines) {
  if (field(instPrefSizeKey()))
    return setInteger(M, instPrefSizeKey(), Lines);
  if (!End)
    return createStringError(inconvertibleErrorCode(),
                             "the descriptor of " + Kernel + " has no .end_amdhsa_kernel");
  // A new line, indented like the directive it goes before.
  StringRef Text = M.items()[item()].Contents;
  StringRef Indent = Text.substr(End).take_while([](char C) { return C == ' ' || C == '\t'; });
  std::string Line = (Indent + instPrefSizeKey() + " " + Twine(Lines) + "\n").str();
  M.items()[item()].Contents =
      M.save((Text.take_front(End) + Line + Text.substr(End)).str());
  add(instPrefSizeKey(), std::to_string(Lines), End + Indent.size() + instPrefSizeKey().size() + 1);
  End += Line.size();
  return Error::success();
}

std::vector<KernelDescriptor> KernelDescriptor::parse(const Module &M, size_t Item) {
  std::vector<KernelDescriptor> Out;
  StringRef Text = M.items()[Item].Contents;
  bool Open = false;
  for (size_t LineAt = 0; LineAt < Text.size();) {
    size_t End = std::min(Text.find('\n', LineAt), Text.size());
    StringRef Whole = Text.slice(LineAt, End);
    size_t Start = LineAt;
    LineAt = End + 1;
    Statement S = splitStatement(Whole.take_front(findComment(Whole)));
    std::string Directive = S.Mnemonic.lower();
    if (Directive == ".amdhsa_kernel") {
      Out.push_back(KernelDescriptor(M, Item, S.Body));
      Open = true;
    } else if (Directive == ".end_amdhsa_kernel") {
      if (Open)
        Out.back().End = Start;
      Open = false;
    } else if (Open && StringRef(Directive).starts_with(".amdhsa_") && !S.Body.empty()) {
      // S.Body is a piece of Whole: its offset there is where the value is.
      Out.back().add(Directive, S.Body, Start + (S.Body.data() - Whole.data()));
    }
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

} // namespace stinkytofu

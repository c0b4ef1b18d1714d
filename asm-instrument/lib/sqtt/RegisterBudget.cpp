//===- RegisterBudget.cpp - SGPRs the inserted code may take --------------===//
#include "asm-instrument/sqtt/RegisterBudget.h"
#include "stinkytofu/analysis/RegisterUsage.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/KernelDescriptor.h"
#include "stinkytofu/ir/KernelMetadata.h"

using namespace llvm;

namespace stinkytofu::sqtt {

using Count = KernelDescriptor::Count;

std::optional<unsigned> kernelNextFreeSGPR(const Module &M, StringRef Name) {
  std::optional<KernelDescriptor> D = KernelDescriptor::find(M, Name);
  std::optional<uint64_t> N = D ? D->count(Count::NextFreeSGPR) : std::nullopt;
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

/// The number kernel \p Name's descriptor states for \p C, or why it
/// cannot grow to \p NewCount \p Registers.
static Expected<uint64_t> declaredCount(const Module &M, StringRef Name, Count C,
                                        unsigned NewCount, StringRef Registers) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), "kernel '" + Name + "' needs " +
                                                           Twine(NewCount) + " " + Registers +
                                                           " for the inserted code, but " + Why);
  };
  std::optional<KernelDescriptor> D = KernelDescriptor::find(M, Name);
  if (!D)
    return Fail("its kernel descriptor was not found");
  std::optional<uint64_t> Old = D->count(C);
  if (!Old)
    return Fail("its " + KernelDescriptor::key(C) + " is not a number");
  return *Old;
}

Error growKernelSGPRs(Module &M, StringRef Name, unsigned NewCount) {
  Expected<uint64_t> Old =
      declaredCount(M, Name, Count::NextFreeSGPR, NewCount, "SGPRs");
  if (!Old)
    return Old.takeError();
  if (NewCount > M.target().hardware().maxSGPRs())
    return createStringError(inconvertibleErrorCode(),
                             "kernel '" + Name + "' needs " + Twine(NewCount) +
                                 " SGPRs for the inserted code, but the target has " +
                                 Twine(M.target().hardware().maxSGPRs()));
  if (NewCount <= *Old)
    return Error::success();
  std::optional<KernelDescriptor> D = KernelDescriptor::find(M, Name);
  unsigned Delta = NewCount - *Old;

  // Rewrite the descriptor and the metadata's .sgpr_count of the same
  // kernel, if there is metadata, by the same amount.
  if (Error E = D->setCount(M, Count::NextFreeSGPR, NewCount))
    return E;
  if (std::optional<KernelMetadata> Meta = KernelMetadata::find(M, Name))
    if (std::optional<uint64_t> Count = Meta->integer(".sgpr_count"))
      return Meta->setInteger(M, ".sgpr_count", *Count + Delta);
  return Error::success();
}

std::optional<unsigned> growableVGPR(const Function &F, unsigned NamedVGPRs) {
  if (!F.isEntry())
    return std::nullopt;
  const Module &M = *F.parent();
  std::optional<KernelDescriptor> D = KernelDescriptor::find(M, F.name());
  std::optional<uint64_t> N = D ? D->count(Count::NextFreeVGPR) : std::nullopt;
  if (!N || *N >= 256 || *N < NamedVGPRs)
    return std::nullopt;
  if (D->states(Count::AccumOffset)) {
    std::optional<uint64_t> Accum = D->count(Count::AccumOffset);
    if (!Accum || *N > *Accum)
      return std::nullopt;
  }
  return unsigned(*N);
}

Error growKernelVGPRs(Module &M, StringRef Name, unsigned NewCount) {
  Expected<uint64_t> Old =
      declaredCount(M, Name, Count::NextFreeVGPR, NewCount, "VGPRs");
  if (!Old)
    return Old.takeError();
  if (NewCount <= *Old)
    return Error::success();
  std::optional<KernelDescriptor> D = KernelDescriptor::find(M, Name);
  // The AGPRs start at accum_offset: it must stay above the VGPRs.
  if (std::optional<uint64_t> Accum = D->count(Count::AccumOffset);
      Accum && *Accum < alignTo(NewCount, 4))
    if (Error E = D->setCount(M, Count::AccumOffset, alignTo(NewCount, 4)))
      return E;
  // Read again: the text of the descriptor changed.
  D = KernelDescriptor::find(M, Name);
  if (Error E = D->setCount(M, Count::NextFreeVGPR, NewCount))
    return E;
  if (std::optional<KernelMetadata> Meta = KernelMetadata::find(M, Name))
    if (std::optional<uint64_t> Count = Meta->integer(".vgpr_count"))
      return Meta->setInteger(M, ".vgpr_count", *Count + (NewCount - *Old));
  return Error::success();
}

} // namespace stinkytofu::sqtt

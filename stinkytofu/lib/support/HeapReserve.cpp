//===- HeapReserve.cpp - Back a short-lived tool's heap with huge pages ---===//
#include "stinkytofu/support/HeapReserve.h"
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace stinkytofu {

#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_POPULATE_WRITE) &&                \
    defined(MADV_HUGEPAGE)
namespace {
// glibc's largest mmap threshold: blocks under it are carved from the heap.
constexpr size_t MaxMmapThreshold = size_t(32) << 20;
// The reserve is allocated in blocks under that threshold.
constexpr size_t ReserveBlock = MaxMmapThreshold / 2;
// Past this the reserve is no longer a short-lived tool's heap.
constexpr size_t MaxReserve = size_t(1) << 30;
constexpr uintptr_t HugePage = uintptr_t(2) << 20;
// Without huge pages, mapping 4 KiB pages up front pays for every page never
// used: only this share of the reserve is mapped (6 bytes per input byte at
// the tool's default, where the Tensile kernels' fault count stopped falling).
constexpr size_t PopulatedShare = 32;

/// Whether the kernel backs memory advised MADV_HUGEPAGE with huge pages
/// (transparent huge pages "always" or "madvise").
bool readKernelGivesHugePages() {
  std::FILE *F = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!F)
    return false;
  char Line[128] = {};
  bool Read = std::fgets(Line, sizeof(Line), F) != nullptr;
  std::fclose(F);
  return Read && !std::strstr(Line, "[never]");
}

/// The setting read once per process, not once per input.
bool kernelGivesHugePages() {
  static const bool Gives = readKernelGivesHugePages();
  return Gives;
}

/// The address ranges the blocks cover, adjacent blocks joined (the heap
/// grows by them one after another, a chunk header apart).
std::vector<std::pair<uintptr_t, uintptr_t>> coveredRanges(const std::vector<void *> &Blocks,
                                                           size_t BlockSize) {
  constexpr uintptr_t HeaderSlack = 64;
  std::vector<std::pair<uintptr_t, uintptr_t>> Ranges;
  for (void *Block : Blocks) {
    uintptr_t Begin = uintptr_t(Block), End = Begin + BlockSize;
    if (!Ranges.empty() && Begin >= Ranges.back().second &&
        Begin <= Ranges.back().second + HeaderSlack)
      Ranges.back().second = End;
    else
      Ranges.emplace_back(Begin, End);
  }
  return Ranges;
}
} // namespace

bool reserveHeap(size_t Bytes) {
  Bytes = std::min(Bytes, MaxReserve);
  if (Bytes == 0 || !mallopt(M_MMAP_THRESHOLD, int(MaxMmapThreshold)) ||
      !mallopt(M_TRIM_THRESHOLD, INT_MAX))
    return false;
  std::vector<void *> Blocks;
  for (size_t Left = Bytes; Left >= ReserveBlock; Left -= ReserveBlock) {
    void *Block = std::malloc(ReserveBlock);
    if (!Block)
      break;
    Blocks.push_back(Block);
  }
  size_t BlockSize = ReserveBlock;
  if (Blocks.empty()) {
    BlockSize = Bytes;
    if (void *Block = std::malloc(Bytes))
      Blocks.push_back(Block);
    else
      return false;
  }
  uintptr_t Page = uintptr_t(sysconf(_SC_PAGESIZE));
  bool Advised = false;
  if (kernelGivesHugePages()) {
    // Each first touch of an aligned 2 MiB inside the range is then one
    // fault instead of 512 (the range's unaligned ends keep 4 KiB pages).
    Advised = true;
    for (auto [Begin, End] : coveredRanges(Blocks, BlockSize)) {
      uintptr_t PageBegin = (Begin + Page - 1) & ~(Page - 1), PageEnd = End & ~(Page - 1);
      Advised &= PageEnd - PageBegin >= HugePage &&
                 madvise(reinterpret_cast<void *>(PageBegin), PageEnd - PageBegin,
                         MADV_HUGEPAGE) == 0;
    }
  }
  if (!Advised) {
    uintptr_t Begin = (uintptr_t(Blocks.front()) + Page - 1) & ~(Page - 1);
    uintptr_t End = (uintptr_t(Blocks.front()) + std::min(BlockSize, Bytes / PopulatedShare)) &
                    ~(Page - 1);
    Advised = End > Begin && madvise(reinterpret_cast<void *>(Begin), End - Begin,
                                     MADV_POPULATE_WRITE) == 0;
  }
  // Freed, the blocks join the top of the heap, where the next allocations
  // are carved from; the trim threshold keeps them there.
  for (void *Block : Blocks)
    std::free(Block);
  return Advised;
}
#else
bool reserveHeap(size_t) { return false; }
#endif

} // namespace stinkytofu

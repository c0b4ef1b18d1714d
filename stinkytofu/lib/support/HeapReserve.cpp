//===- HeapReserve.cpp - Map a short-lived tool's heap up front -----------===//
#include "stinkytofu/support/HeapReserve.h"
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace stinkytofu {

bool reserveHeap(size_t Bytes) {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)
  // glibc's largest mmap threshold; the reserve must stay under it to be
  // carved from the heap.
  constexpr size_t MaxMmapThreshold = size_t(32) << 20;
  Bytes = std::min(Bytes, MaxMmapThreshold - (size_t(1) << 20));
  if (Bytes == 0 || !mallopt(M_MMAP_THRESHOLD, int(MaxMmapThreshold)) ||
      !mallopt(M_TRIM_THRESHOLD, INT_MAX))
    return false;
  void *Block = std::malloc(Bytes);
  if (!Block)
    return false;
  uintptr_t Page = uintptr_t(sysconf(_SC_PAGESIZE));
  uintptr_t Begin = (uintptr_t(Block) + Page - 1) & ~(Page - 1);
  uintptr_t End = (uintptr_t(Block) + Bytes) & ~(Page - 1);
  bool Mapped = End > Begin &&
                madvise(reinterpret_cast<void *>(Begin), End - Begin, MADV_POPULATE_WRITE) == 0;
  // Freed, the block joins the top of the heap, where the next allocations
  // are carved from; the trim threshold keeps it mapped.
  std::free(Block);
  return Mapped;
#else
  (void)Bytes;
  return false;
#endif
}

} // namespace stinkytofu

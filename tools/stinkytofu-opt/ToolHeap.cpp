//===- ToolHeap.cpp - The allocator of the stinkytofu-opt process ---------===//
#include "ToolHeap.h"
#include "stinkytofu/support/HeapReserve.h"

#ifdef STINKYTOFU_MIMALLOC
#include <cstdint>
#include <cstdio>
#include <mimalloc.h>
#include <optional>
#include <utility>
#include <sys/mman.h>
#endif

namespace stinkytofu {

#ifdef STINKYTOFU_MIMALLOC
/// The mapping (from /proc/self/maps) that holds \p Address.
static std::optional<std::pair<uintptr_t, uintptr_t>> mappingOf(uintptr_t Address) {
  std::FILE *Maps = std::fopen("/proc/self/maps", "r");
  if (!Maps)
    return std::nullopt;
  std::optional<std::pair<uintptr_t, uintptr_t>> Found;
  char Line[512];
  while (!Found && std::fgets(Line, sizeof(Line), Maps)) {
    unsigned long Begin = 0, End = 0;
    if (std::sscanf(Line, "%lx-%lx", &Begin, &End) == 2 && Address >= Begin && Address < End)
      Found.emplace(Begin, End);
  }
  std::fclose(Maps);
  return Found;
}

void configureToolHeap(bool HugePages) {
  if (!HugePages)
    return;
  // mimalloc maps the segments it takes from here on as huge pages; the
  // one it is carving from (mapped before main, when the option was still
  // off) is advised so.
  mi_option_set_enabled(mi_option_large_os_pages, true);
  void *Probe = mi_malloc(1);
  if (auto Mapping = mappingOf(uintptr_t(Probe)))
    madvise(reinterpret_cast<void *>(Mapping->first), Mapping->second - Mapping->first,
            MADV_HUGEPAGE);
  mi_free(Probe);
}

void reserveToolHeap(size_t, unsigned) {}
#else
void configureToolHeap(bool) {}

void reserveToolHeap(size_t InputBytes, unsigned BytesPerInputByte) {
  reserveHeap(InputBytes * BytesPerInputByte);
}
#endif

} // namespace stinkytofu

//===- ToolHeap.h - The allocator of the stinkytofu-opt process -*- C++ -*-===//
//
// A run allocates tens of megabytes in millions of small blocks and exits:
// the allocator's speed and its page faults are a large share of it
// (docs/performance.md, "The tool's heap"). Where the build found mimalloc
// (libmimalloc-dev) the tool links it, replacing malloc for the whole
// process, and lets it map huge pages; otherwise glibc's heap is reserved
// per input (reserveHeap). Not in the sanitizer builds, whose allocators
// replace both.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_OPT_TOOLHEAP_H
#define STINKYTOFU_OPT_TOOLHEAP_H

#include <cstddef>

namespace stinkytofu {

/// Once, after the options are parsed: whether the heap may take huge
/// pages (--heap-reserve not 0).
void configureToolHeap(bool HugePages);

/// Before reading an input of \p InputBytes: \p BytesPerInputByte of heap
/// per input byte made ready for it (glibc's heap only; mimalloc maps its
/// own as it grows).
void reserveToolHeap(size_t InputBytes, unsigned BytesPerInputByte);

} // namespace stinkytofu

#endif

//===- HeapReserve.h - Map a short-lived tool's heap up front ----*- C++ -*-===//
//
// Reading a kernel into the IR touches megabytes of fresh heap, and every
// first touch of a 4 KiB page is a page fault. Under a hypervisor a fault
// costs microseconds (about 9 us on the 2-core VM the project's CI uses): for
// a 10,000-line kernel that was a tenth of the whole run. Asking the kernel
// to map the pages in one call (madvise MADV_POPULATE_WRITE) costs a small
// fraction of that per page: the same trade a JVM makes with
// -XX:+AlwaysPreTouch.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_SUPPORT_HEAPRESERVE_H
#define STINKYTOFU_SUPPORT_HEAPRESERVE_H

#include <cstddef>

namespace stinkytofu {

/// Lets the next \p Bytes of heap allocations land on memory that is already
/// mapped: large blocks are kept on the heap (not given their own mmap) and
/// the heap is never trimmed, so memory freed is memory reused; then \p Bytes
/// at the top of the heap are mapped in one call. This changes malloc's
/// settings for the whole process: for tools, not for libraries. Linux with
/// glibc only; elsewhere, and on kernels without MADV_POPULATE_WRITE (before
/// 5.14), it does nothing. Returns whether the pages were mapped.
bool reserveHeap(size_t Bytes);

} // namespace stinkytofu

#endif

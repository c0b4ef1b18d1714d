//===- HeapReserve.h - Back a short-lived tool's heap with huge pages -*- C++ -*-===//
//
// Reading a kernel into the IR and running a pipeline on it touches tens of
// megabytes of fresh heap, and every first touch of a 4 KiB page is a page
// fault. Under a hypervisor a fault costs microseconds (about 9 us on the
// 2-core VM the project's CI uses): for the SQTT pipeline on a call-dense
// kernel, 10,000 faults were more than half of the run's wall time. Heap
// advised as huge pages faults once per 2 MiB instead; where the kernel has
// no transparent huge pages, mapping part of the heap in one call
// (MADV_POPULATE_WRITE) still saves most of the faults of what is used.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_SUPPORT_HEAPRESERVE_H
#define STINKYTOFU_SUPPORT_HEAPRESERVE_H

#include <cstddef>

namespace stinkytofu {

/// Lets the next \p Bytes (at most 1 GiB) of heap allocations land on memory
/// that faults in huge pages: large blocks are kept on the heap (not given
/// their own mmap) and the heap is never trimmed, so memory freed is memory
/// reused; the reserved range is advised MADV_HUGEPAGE. Untouched, it costs
/// address space only. Where the kernel has no transparent huge pages, a
/// 32nd of it is mapped up front instead. This changes malloc's settings
/// for the whole process: for tools, not for libraries. Linux with glibc
/// only (kernel 5.14+); elsewhere it does nothing. Returns whether the
/// range was advised or mapped.
bool reserveHeap(size_t Bytes);

} // namespace stinkytofu

#endif

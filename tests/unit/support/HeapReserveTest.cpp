//===- HeapReserveTest.cpp - Mapping a tool's heap up front ---------------===//
#include "stinkytofu/support/HeapReserve.h"
#include "gtest/gtest.h"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>
#endif

// Under AddressSanitizer malloc is ASan's allocator, not glibc's.
#if defined(__SANITIZE_ADDRESS__)
#define STINKYTOFU_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STINKYTOFU_UNDER_ASAN 1
#endif
#endif

namespace {

#if defined(STINKYTOFU_UNDER_ASAN)
// ASan's mallopt accepts no setting (it returns 0): there is no glibc heap to
// keep and map, so reserveHeap maps nothing and says so; the tool runs on.
TEST(HeapReserveTest, RefusedUnderAddressSanitizer) {
  EXPECT_FALSE(stinkytofu::reserveHeap(size_t(8) << 20));
}
#elif defined(__linux__) && defined(__GLIBC__)
/// Whether the running kernel has MADV_POPULATE_WRITE (Linux 5.14).
bool kernelCanPopulate() {
  utsname U;
  unsigned Major = 0, Minor = 0;
  return uname(&U) == 0 && std::sscanf(U.release, "%u.%u", &Major, &Minor) == 2 &&
         (Major > 5 || (Major == 5 && Minor >= 14));
}

/// The transparent huge pages setting, "" where the kernel has none.
std::string hugePageSetting() {
  std::ifstream In("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string Line;
  std::getline(In, Line);
  return Line;
}

/// The VmFlags of the mapping holding \p Address (/proc/self/smaps).
std::string mappingFlags(uintptr_t Address) {
  std::ifstream Smaps("/proc/self/smaps");
  bool Inside = false;
  for (std::string Line; std::getline(Smaps, Line);) {
    unsigned long Begin = 0, End = 0;
    if (std::sscanf(Line.c_str(), "%lx-%lx ", &Begin, &End) == 2 && Line.find('-') < 16)
      Inside = Address >= Begin && Address < End;
    else if (Inside && Line.rfind("VmFlags:", 0) == 0)
      return Line;
  }
  return "";
}

// An allocation made after the reserve lands on heap advised as huge pages
// (VmFlags "hg"), or, where the kernel has none, on pages mapped before
// anything writes them (mincore: resident).
TEST(HeapReserveTest, LaterAllocationsAreHugeOrMapped) {
  if (!kernelCanPopulate())
    GTEST_SKIP() << "kernel without MADV_POPULATE_WRITE";
  constexpr size_t Reserve = size_t(64) << 20, Block = size_t(1) << 20;
  ASSERT_TRUE(stinkytofu::reserveHeap(Reserve));
  char *P = static_cast<char *>(std::malloc(Block));
  ASSERT_NE(P, nullptr);
  std::string Setting = hugePageSetting();
  if (!Setting.empty() && Setting.find("[never]") == std::string::npos) {
    EXPECT_NE(mappingFlags(uintptr_t(P) + Block / 2).find(" hg"), std::string::npos)
        << "transparent huge pages: " << Setting;
  } else {
    uintptr_t Page = uintptr_t(sysconf(_SC_PAGESIZE));
    uintptr_t Begin = (uintptr_t(P) + Page - 1) & ~(Page - 1);
    uintptr_t End = (uintptr_t(P) + Block) & ~(Page - 1);
    std::vector<unsigned char> Resident((End - Begin) / Page);
    ASSERT_EQ(mincore(reinterpret_cast<void *>(Begin), End - Begin, Resident.data()), 0);
    size_t Mapped = 0;
    for (unsigned char R : Resident)
      Mapped += R & 1;
    EXPECT_EQ(Mapped, Resident.size());
  }
  std::free(P);
}
#endif

TEST(HeapReserveTest, NothingToReserve) { EXPECT_FALSE(stinkytofu::reserveHeap(0)); }

} // namespace

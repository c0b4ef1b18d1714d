//===- CheapOnce.h - A once-only initialisation cheap to ask again -*- C++ -*-===//
//
// std::call_once behind a flag read first. libstdc++'s call_once sets up
// thread-local state on every call, done or not: for tables built on the
// first lookup and then asked once per register or opcode, that set-up cost
// more than the lookups (about 17 M instructions of an -O3 run on the
// largest Tensile kernel).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_SUPPORT_CHEAPONCE_H
#define STINKYTOFU_SUPPORT_CHEAPONCE_H

#include <atomic>
#include <mutex>

namespace stinkytofu {

class CheapOnce {
public:
  /// Runs \p Init unless it ran (or is running on another thread, which
  /// this waits for), as std::call_once does.
  template <typename InitT> void operator()(InitT &&Init) {
    if (!Done.load(std::memory_order_acquire))
      runOnce(Init);
  }

private:
  /// Out of line: inlined, call_once's set-up made every caller save and
  /// restore registers on every call, done or not (TargetInfo::canonical
  /// cost 28 instructions a query; -O3 on the DGEMM 7.7 M).
  template <typename InitT> [[gnu::noinline]] void runOnce(InitT &Init) {
    std::call_once(Flag, [&] {
      Init();
      Done.store(true, std::memory_order_release);
    });
  }

  std::once_flag Flag;
  std::atomic<bool> Done{false};
};

} // namespace stinkytofu

#endif

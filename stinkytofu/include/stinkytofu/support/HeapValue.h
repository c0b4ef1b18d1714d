//===- HeapValue.h - An optional value kept out of line ---------*- C++ -*-===//
//
// For members that most objects of a numerous class leave empty or fill late
// (an instruction read from a file has no spelled-out mnemonic or ISA facts
// until someone asks): a pointer's worth of room in each object instead of
// the value's, with value semantics, so the class stays copyable.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_SUPPORT_HEAPVALUE_H
#define STINKYTOFU_SUPPORT_HEAPVALUE_H

#include <memory>

namespace stinkytofu {

template <typename T> class HeapValue {
public:
  HeapValue() = default;
  HeapValue(const HeapValue &Other) : P(Other.P ? std::make_unique<T>(*Other.P) : nullptr) {}
  HeapValue(HeapValue &&) noexcept = default;
  HeapValue &operator=(const HeapValue &Other) {
    if (this != &Other)
      P = Other.P ? std::make_unique<T>(*Other.P) : nullptr;
    return *this;
  }
  HeapValue &operator=(HeapValue &&) noexcept = default;

  explicit operator bool() const { return P != nullptr; }
  /// The value, default-constructed on first use.
  T &get() {
    if (!P)
      P = std::make_unique<T>();
    return *P;
  }
  /// The value, or \p Empty when there is none.
  const T &getOr(const T &Empty) const { return P ? *P : Empty; }

private:
  std::unique_ptr<T> P;
};

} // namespace stinkytofu

#endif

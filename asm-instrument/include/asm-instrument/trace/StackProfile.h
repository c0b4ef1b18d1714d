//===- StackProfile.h - Cycles per call stack (flamegraph data) -*- C++ -*-===//
//
// A tree of frames (kernel, then the open scopes, outermost first) holding
// the cycles spent with exactly that stack open, summed over waves and
// dispatches. The flamegraph outputs read it: folded stacks
// (`frame;frame <cycles>`, what flamegraph.pl and speedscope import), the
// SVG, and speedscope's own JSON. Memory grows with the number of distinct
// stacks, not with the trace.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_STACKPROFILE_H
#define ASM_INSTRUMENT_TRACE_STACKPROFILE_H

#include "asm-instrument/trace/TraceSink.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace stinkytofu::trace {

class StackProfile : public TraceSink {
public:
  struct Node {
    std::string Name;
    unsigned Parent = 0;
    uint64_t Self = 0;
    uint64_t Total = 0; ///< Self plus descendants; set by finalize().
    llvm::StringMap<unsigned> Children;
  };

  StackProfile();
  void beginDispatch(const DispatchInfo &D) override { ByNameData.clear(); }
  void attribute(const WaveInfo &W, llvm::ArrayRef<ScopeFrame> Stack, uint64_t Cycles) override;

  /// Computes the totals; call once after reading.
  void finalize();
  /// Node 0 is the root (no frame); its children are the kernels.
  const std::vector<Node> &nodes() const { return Nodes; }
  /// Children of \p N, sorted by name.
  std::vector<unsigned> sortedChildren(unsigned N) const;
  /// Visits nodes depth first, children by name; \p Path holds the node
  /// indices from a kernel down to the visited node.
  void walk(llvm::function_ref<void(llvm::ArrayRef<unsigned> Path)> Visit) const;

  /// `frame;frame <cycles>` per stack with cycles of its own.
  void printFolded(llvm::raw_ostream &OS) const;
  /// speedscope's "sampled" file format, one sample per stack.
  void printSpeedscope(llvm::raw_ostream &OS, llvm::StringRef Name) const;

  /// A frame name as folded stacks allow it: no ';', no line breaks.
  static std::string foldedName(llvm::StringRef Name);

private:
  unsigned child(unsigned Parent, llvm::StringRef Name);
  std::vector<Node> Nodes;
  /// (parent, address of a frame name) -> child: frame names point into the
  /// dispatch's funcmaps, so within a dispatch no string needs hashing.
  llvm::DenseMap<std::pair<unsigned, const char *>, unsigned> ByNameData;
};

} // namespace stinkytofu::trace

#endif

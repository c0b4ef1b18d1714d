//===- CfgDotWriter.cpp - The CFG as Graphviz -----------------------------===//
#include "stinkytofu/analysis/CfgDotWriter.h"
#include "stinkytofu/analysis/Reachability.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace stinkytofu {

StringRef edgeKindName(EdgeKind K) {
  switch (K) {
  case EdgeKind::Branch:
    return "branch";
  case EdgeKind::FallThrough:
    return "fall-through";
  case EdgeKind::LongBranch:
    return "long-branch";
  }
  return "unknown";
}

static StringRef edgeKindStyle(EdgeKind K) {
  switch (K) {
  case EdgeKind::Branch:
    return "style=solid, color=black";
  case EdgeKind::FallThrough:
    return "style=dashed, color=gray40";
  case EdgeKind::LongBranch:
    return "style=bold, color=blue";
  }
  return "";
}

/// A DOT double-quoted string.
static std::string quote(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    Out += C;
  }
  return Out + "\"";
}

void writeCfgDot(const Module &M, raw_ostream &OS) {
  OS << "digraph " << quote(M.name()) << " {\n";
  OS << "  node [shape=box, fontname=\"monospace\"];\n";
  OS << "  edge [fontname=\"monospace\", fontsize=10];\n";
  unsigned FnIndex = 0;
  for (const Function *F : M.functionsInPrintOrder()) {
    // Node ids: `f<function index>.<block name>`, made unique with `#<block
    // index>` should two blocks share a name.
    DenseMap<const BasicBlock *, std::string> Ids;
    StringSet<> Used;
    unsigned N = 0;
    for (const BasicBlock &BB : F->blocks()) {
      std::string Id = ("f" + Twine(FnIndex) + "." + BB.name()).str();
      if (!Used.insert(Id).second)
        Id += "#" + std::to_string(N);
      Used.insert(Id);
      Ids[&BB] = quote(Id);
      ++N;
    }
    auto NodeId = [&](const BasicBlock *BB) { return Ids.lookup(BB); };
    SmallPtrSet<const BasicBlock *, 16> Unreachable;
    for (const BasicBlock *BB : unreachableBlocks(*F))
      Unreachable.insert(BB);

    OS << "  subgraph " << quote(("cluster_" + Twine(FnIndex)).str()) << " {\n";
    OS << "    label=" << quote((F->name() + (F->isEntry() ? " (entry)" : "")).str())
       << ";\n";
    for (const BasicBlock &BB : F->blocks()) {
      OS << "    " << NodeId(&BB) << " [label=" << quote(BB.name());
      if (Unreachable.count(&BB))
        OS << ", style=filled, fillcolor=lightgray, tooltip=\"unreachable\"";
      OS << "];\n";
    }
    for (const BasicBlock &BB : F->blocks())
      for (size_t S = 0; S < BB.successors().size(); ++S) {
        EdgeKind K = S < BB.successorKinds().size() ? BB.successorKinds()[S]
                                                    : EdgeKind::Branch;
        OS << "    " << NodeId(&BB) << " -> " << NodeId(BB.successors()[S])
           << " [label=" << quote(edgeKindName(K)) << ", " << edgeKindStyle(K) << "];\n";
      }
    OS << "  }\n";
    ++FnIndex;
  }
  OS << "}\n";
}

} // namespace stinkytofu

//===- StackProfile.cpp - Cycles per call stack (flamegraph data) ---------===//
#include "asm-instrument/trace/StackProfile.h"
#include "asm-instrument/trace/JsonWriting.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <functional>

using namespace llvm;

namespace stinkytofu::trace {

StackProfile::StackProfile() { Nodes.emplace_back(); }

std::string StackProfile::foldedName(StringRef Name) {
  std::string S = Name.empty() ? "[unknown kernel]" : Name.str();
  for (char &C : S)
    if (C == ';' || C == '\n' || C == '\r')
      C = C == ';' ? ':' : ' ';
  return S;
}

unsigned StackProfile::child(unsigned Parent, StringRef Name) {
  auto [Cached, Inserted] = ByNameData.try_emplace({Parent, Name.data()}, 0);
  if (!Inserted)
    return Cached->second;
  auto It = Nodes[Parent].Children.find(Name);
  if (It != Nodes[Parent].Children.end())
    return Cached->second = It->second;
  unsigned N = Nodes.size();
  Node New;
  New.Name = foldedName(Name);
  New.Parent = Parent;
  Nodes.push_back(std::move(New));
  Nodes[Parent].Children[Name] = N;
  return Cached->second = N;
}

void StackProfile::attribute(const WaveInfo &W, ArrayRef<ScopeFrame> Stack, uint64_t Cycles) {
  unsigned N = child(0, W.Kernel);
  for (const ScopeFrame &F : Stack)
    N = child(N, F.Name);
  Nodes[N].Self += Cycles;
}

void StackProfile::finalize() {
  // Children always come after their parent.
  for (Node &N : Nodes)
    N.Total = N.Self;
  for (unsigned I = Nodes.size(); I-- > 1;)
    Nodes[Nodes[I].Parent].Total += Nodes[I].Total;
}

std::vector<unsigned> StackProfile::sortedChildren(unsigned N) const {
  std::vector<unsigned> C;
  for (const auto &E : Nodes[N].Children)
    C.push_back(E.second);
  llvm::sort(C, [&](unsigned A, unsigned B) { return Nodes[A].Name < Nodes[B].Name; });
  return C;
}

void StackProfile::walk(function_ref<void(ArrayRef<unsigned>)> Visit) const {
  SmallVector<unsigned, 16> Path;
  std::function<void(unsigned)> Go = [&](unsigned N) {
    Path.push_back(N);
    Visit(Path);
    for (unsigned C : sortedChildren(N))
      Go(C);
    Path.pop_back();
  };
  for (unsigned K : sortedChildren(0))
    Go(K);
}

void StackProfile::printFolded(raw_ostream &OS) const {
  walk([&](ArrayRef<unsigned> Path) {
    const Node &Leaf = Nodes[Path.back()];
    if (!Leaf.Self)
      return;
    ListSeparator Sep(";");
    for (unsigned N : Path)
      OS << Sep << Nodes[N].Name;
    OS << ' ' << Leaf.Self << '\n';
  });
}

void StackProfile::printSpeedscope(raw_ostream &OS, StringRef Name) const {
  // Frames are shared by name; samples list frame indices root first.
  StringMap<unsigned> FrameIndex;
  std::vector<StringRef> Frames;
  std::vector<std::pair<std::vector<unsigned>, uint64_t>> Samples;
  uint64_t Total = 0;
  walk([&](ArrayRef<unsigned> Path) {
    const Node &Leaf = Nodes[Path.back()];
    if (!Leaf.Self)
      return;
    std::vector<unsigned> Stack;
    for (unsigned N : Path) {
      auto [It, New] = FrameIndex.try_emplace(Nodes[N].Name, Frames.size());
      if (New)
        Frames.push_back(It->first());
      Stack.push_back(It->second);
    }
    Samples.push_back({std::move(Stack), Leaf.Self});
    Total += Leaf.Self;
  });
  OS << "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
        "\"exporter\":\"sqtt-trace\",\"name\":";
  writeJsonString(OS, Name);
  OS << ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[";
  ListSeparator Sep(",");
  for (StringRef F : Frames) {
    OS << Sep << "{\"name\":";
    writeJsonString(OS, F);
    OS << '}';
  }
  OS << "]},\"profiles\":[{\"type\":\"sampled\",\"name\":";
  writeJsonString(OS, Name);
  OS << ",\"unit\":\"none\",\"startValue\":0,\"endValue\":" << Total << ",\"samples\":[";
  ListSeparator SampleSep(",");
  for (auto &[Stack, Weight] : Samples) {
    OS << SampleSep << '[';
    ListSeparator FrameSep(",");
    for (unsigned F : Stack)
      OS << FrameSep << F;
    OS << ']';
  }
  OS << "],\"weights\":[";
  ListSeparator WeightSep(",");
  for (auto &Sample : Samples)
    OS << WeightSep << Sample.second;
  OS << "]}]}\n";
}

} // namespace stinkytofu::trace

//===- MarkerDensity.cpp - Marker records per executed instruction --------===//
#include "asm-instrument/sqtt/MarkerDensity.h"
#include "asm-instrument/sqtt/LoopMarkers.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/StinkyTofuContext.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace stinkytofu::sqtt {

unsigned payloadRecords(const MarkerSite &S, unsigned WaveSize) {
  if (S.Trace)
    return S.Trace->extraPayloadCount(WaveSize);
  return S.Payload ? 1 : 0;
}

FunctionDensity measureDensity(const Function &F, const LoopInfo &LI,
                               ArrayRef<MarkerSite> Sites) {
  FunctionDensity D;
  D.Function = F.name().str();
  D.Kernel = F.isEntry();
  DenseMap<const Loop *, size_t> Index;
  for (Loop *L : LI.loopsInPreorder()) {
    Index[L] = D.Loops.size();
    D.Loops.push_back({loopScopeName(*L->header()), L->header(), L->depth(), {}});
  }
  auto CountIn = [&](const BasicBlock *B) -> RecordCount * {
    if (const Loop *L = LI.loopFor(B))
      return &D.Loops[Index.lookup(L)].PerIteration;
    return nullptr;
  };
  for (const BasicBlock &BB : F.blocks()) {
    uint64_t N = 0;
    for (const Instruction &I : BB.instructions())
      N += I.kind() != InstKind::Pseudo;
    D.Path.Instructions += N;
    if (RecordCount *C = CountIn(&BB))
      C->Instructions += N;
  }
  const unsigned Wave = traceWaveSize(F.parent()->target());
  for (const MarkerSite &S : Sites) {
    unsigned Payload = payloadRecords(S, Wave);
    D.PayloadRecords += Payload;
    D.PayloadMarkers += Payload != 0;
    D.Path.Records += 1 + Payload;
    if (RecordCount *C = CountIn(S.RunsWith ? S.RunsWith : S.Point.block()))
      C->Records += 1 + Payload;
  }
  return D;
}

/// "1 record per 12.5 instructions", "3.5 records per instruction" (denser
/// than one per instruction: address traces), or "no records".
static std::string ratio(const RecordCount &C) {
  if (C.Records == 0)
    return "no records";
  std::string S;
  raw_string_ostream OS(S);
  if (C.Records > C.Instructions)
    OS << format("%.1f", double(C.Records) / double(std::max<uint64_t>(C.Instructions, 1)))
       << " records per instruction";
  else
    OS << "1 record per " << format("%.1f", double(C.Instructions) / double(C.Records))
       << " instructions";
  return S;
}

void printDensity(const FunctionDensity &D, raw_ostream &OS) {
  OS << "density " << (D.Kernel ? "kernel " : "function ") << D.Function << ": path "
     << D.Path.Records << " records, " << D.Path.Instructions << " instructions ("
     << ratio(D.Path) << "), payload records " << D.PayloadRecords << " on "
     << D.PayloadMarkers << " markers\n";
  for (const LoopDensity &L : D.Loops)
    OS << "density loop " << L.Name << " (depth " << L.Depth << "): per iteration "
       << L.PerIteration.Records << " records, " << L.PerIteration.Instructions
       << " instructions (" << ratio(L.PerIteration) << ")\n";
}

void warnDensity(const FunctionDensity &D, unsigned N, const Module &M,
                 StinkyTofuContext &Context) {
  if (N == 0)
    return;
  for (const LoopDensity &L : D.Loops) {
    const RecordCount &C = L.PerIteration;
    if (C.Records * N <= C.Instructions)
      continue;
    SourceDiagnostic Diag{SourceMgr::DK_Warning, M.fileName().str(), 0, 0, "",
                          ("SQTT markers: loop '" + L.Name + "' writes " +
                           Twine(C.Records) + " marker records per " + Twine(C.Instructions) +
                           " instructions per iteration, more than one per " + Twine(N) +
                           " (density-warn=" + Twine(N) +
                           "); dense markers lose records in the trace")
                              .str(),
                          {}, {}};
    if (L.Header->location().isValid()) {
      Diag.Line = L.Header->location().Line;
      Diag.Column = L.Header->location().Column;
      Diag.LineText = L.Header->labelText().rtrim("\r\n").str();
    }
    Context.diagnose(Diag);
  }
}

} // namespace stinkytofu::sqtt

//===- InstructionProfile.cpp - Cycles per instruction of a capture -------===//
#include "asm-instrument/trace/InstructionProfile.h"
#include "asm-instrument/trace/AttDirectory.h"
#include "asm-instrument/trace/WaveInstructions.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace llvm;

namespace stinkytofu::trace {

InstructionCounts InstructionProfile::total() const {
  InstructionCounts T;
  for (const ProfiledInstruction &I : Instructions)
    T += I.Counts;
  return T;
}

namespace {

/// Rows of one dispatch's wave files, summed per code.json row.
class WaveRowSums {
public:
  WaveRowSums(const CodeTable &Code)
      : Counts(Code.Rows.size()), Categories(Code.Rows.size()), WaitsFor(Code.Rows.size()) {
    uint32_t MaxLine = 0;
    for (const CodeRow &R : Code.Rows)
      MaxLine = std::max(MaxLine, R.Line);
    RowOfLine.assign(size_t(MaxLine) + 1, NoRow);
    for (size_t I = 0; I < Code.Rows.size(); ++I)
      RowOfLine[Code.Rows[I].Line] = uint32_t(I);
  }

  Error readWave(StringRef Path, Diagnostics &Diags, uint64_t &Rows) {
    PrevEnd.reset();
    uint32_t FirstRow = NoRow;
    uint64_t FirstTime = 0;
    Expected<WaveHeader> Span = readWaveInstructions(Path, [&](const WaveRow &R) {
      uint32_t Row = R.Line < RowOfLine.size() ? RowOfLine[R.Line] : NoRow;
      if (Row == NoRow) {
        ++Diags.RowsWithoutInstruction;
        return;
      }
      InstructionCounts &C = Counts[Row];
      ++C.Executions;
      C.Cycles += R.Duration;
      C.Stall += R.Stall;
      if (PrevEnd)
        C.Idle += R.Time > *PrevEnd ? R.Time - *PrevEnd : 0;
      else {
        FirstRow = Row;
        FirstTime = R.Time;
      }
      PrevEnd = R.Time + R.Duration;
      Categories[Row] = R.Category;
    }, [&](uint32_t Line, ArrayRef<uint32_t> Deps) {
      uint32_t Row = Line < RowOfLine.size() ? RowOfLine[Line] : NoRow;
      if (Row == NoRow)
        return;
      std::vector<uint32_t> &Into = WaitsFor[Row];
      for (uint32_t Dep : Deps) {
        uint32_t DepRow = Dep < RowOfLine.size() ? RowOfLine[Dep] : NoRow;
        if (DepRow != NoRow && !is_contained(Into, DepRow) &&
            Into.size() < ProfiledInstruction::MaxWaitsFor)
          Into.push_back(DepRow);
      }
    });
    if (!Span)
      return Span.takeError();
    // The wave's begin may follow its rows in the file.
    if (FirstRow != NoRow && FirstTime > Span->Begin)
      Counts[FirstRow].Idle += FirstTime - Span->Begin;
    Rows += Span->Rows;
    return Error::success();
  }

  std::vector<InstructionCounts> Counts;
  std::vector<uint8_t> Categories;
  /// Per code row, the rows its waitcnt rows name.
  std::vector<std::vector<uint32_t>> WaitsFor;

private:
  static constexpr uint32_t NoRow = UINT32_MAX;
  std::vector<uint32_t> RowOfLine;
  std::optional<uint64_t> PrevEnd;
};

} // namespace

Expected<InstructionProfile> readInstructionProfile(StringRef Root, Diagnostics &Diags) {
  Expected<std::vector<DispatchDir>> Dispatches = findDispatches(Root);
  if (!Dispatches)
    return Dispatches.takeError();
  for (const DispatchDir &D : *Dispatches)
    if (Error E = checkComplete(D, {"code.json"}, /*WaveFiles=*/true))
      return std::move(E);

  InstructionProfile P;
  P.FromWaveRows = llvm::any_of(*Dispatches, [](const DispatchDir &D) {
    return !D.WaveFiles.empty();
  });
  std::map<std::pair<uint32_t, uint64_t>, ProfiledInstruction> ByAddress;
  std::map<std::pair<uint32_t, uint64_t>, CodeLabel> Labels;
  JsonReader Reader;
  for (const DispatchDir &D : *Dispatches) {
    Expected<CodeTable> Code = readCodeTable(D.file("code.json"), Reader);
    if (!Code)
      return Code.takeError();
    P.HasSamples |= Code->HasSamples;
    std::optional<WaveRowSums> Sums;
    if (P.FromWaveRows) {
      Sums.emplace(*Code);
      for (const WaveFile &W : D.WaveFiles)
        if (Error E = Sums->readWave(W.Path, Diags, P.Rows))
          return std::move(E);
      P.WaveFiles += D.WaveFiles.size();
    }
    for (size_t I = 0; I < Code->Rows.size(); ++I) {
      CodeRow &R = Code->Rows[I];
      std::pair<uint32_t, uint64_t> Key(R.CodeObject, R.Address);
      if (R.isLabel()) {
        Labels.try_emplace(Key, CodeLabel{R.Isa.substr(2), R.CodeObject, R.Address});
        continue;
      }
      ProfiledInstruction &Out = ByAddress[Key];
      if (Out.Isa.empty()) {
        Out.CodeObject = R.CodeObject;
        Out.Address = R.Address;
        Out.Isa = std::move(R.Isa);
        Out.Source = std::move(R.Source);
      }
      Out.Counts += Sums ? Sums->Counts[I] : R.Counts;
      Out.Samples += R.Samples;
      if (Sums && Sums->Categories[I])
        Out.Category = Sums->Categories[I];
      if (Sums)
        for (uint32_t Dep : Sums->WaitsFor[I]) {
          uint64_t Address = Code->Rows[Dep].Address;
          if (!is_contained(Out.WaitsFor, Address) &&
              Out.WaitsFor.size() < ProfiledInstruction::MaxWaitsFor)
            Out.WaitsFor.push_back(Address);
        }
      llvm::sort(Out.WaitsFor);
    }
    for (CodeLabel &K : Code->Kernels)
      Labels.try_emplace({K.CodeObject, K.Address}, std::move(K));
    ++P.Dispatches;
  }
  for (auto &[Key, I] : ByAddress)
    P.Instructions.push_back(std::move(I));
  for (auto &[Key, L] : Labels)
    P.Labels.push_back(std::move(L));
  return P;
}

} // namespace stinkytofu::trace

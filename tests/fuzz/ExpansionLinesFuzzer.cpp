//===- ExpansionLinesFuzzer.cpp - Reconstructed lines against MC's --------===//
//
// The reader ties every instruction a macro or `.rept` expansion makes to the
// line of the outermost invocation. mc/ExpansionLines.cpp works that line out
// with a scanner of its own (the statements that open expansions, counted
// against the buffers the parser opened), kept because MC's own answer
// (GenDwarfForAssembly) costs a line-table lookup per statement; when it
// cannot vouch for an answer the reader asks MC. This target proves that
// whenever the reconstruction answers, its answer is MC's: on every input the
// reader hands MC (the reading limits and the metadata check accept it) and
// MC assembles without an error, each instruction
// is on the same line, from an expansion or not, as with
// ExpansionLines::FromParser.
//
//===----------------------------------------------------------------------===//
#include "DifferentialSupport.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/mc/InputLimits.h"
#include "stinkytofu/mc/MetadataYaml.h"
#include <string>
#include <vector>

using namespace llvm;
using namespace stinkytofu;

namespace {

/// Each instruction's line, and whether it came out of an expansion
/// (0: a line MC does not know).
struct PlacedInstruction {
  unsigned Line;
  bool FromExpansion;
  bool operator==(const PlacedInstruction &) const = default;
};

unsigned lineAt(StringRef Text, size_t Offset) {
  return unsigned(Text.take_front(Offset).count('\n')) + 1;
}

std::optional<std::vector<PlacedInstruction>> assemble(StringRef Input, ExpansionLines Lines) {
  AssemblerState AS(fuzz::differentialTarget(), fuzz::limits());
  std::vector<AsmDiagnostic> Diags;
  AssembledFile File =
      AS.assembleFile(MemoryBuffer::getMemBufferCopy(Input, "expansions.s"), Diags, Lines);
  if (any_of(Diags, [](const AsmDiagnostic &D) { return D.Diag.getKind() == SourceMgr::DK_Error; }))
    return std::nullopt;
  // The reconstruction declined: the reader asked MC, nothing to compare.
  if (Lines == ExpansionLines::Reconstruct &&
      File.ExpansionLinesFrom != ExpansionLines::Reconstruct)
    return std::nullopt;
  StringRef Main = AS.sourceMgr().getMemoryBuffer(AS.mainBufferId())->getBuffer();
  std::vector<PlacedInstruction> Placed;
  for (const AsmEvent &E : File.Events) {
    if (E.K != AsmEvent::Kind::Instruction)
      continue;
    unsigned Line = E.Offset != AsmEvent::NoOffset ? lineAt(Main, E.Offset)
                    : E.FromExpansion               ? E.Line
                                                    : 0;
    Placed.push_back({Line, E.FromExpansion});
  }
  return Placed;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::optional<StringRef> Input = fuzz::textInput(Data, Size);
  // What the reader refuses before MC reads it.
  if (!Input ||
      checkInputLimits(*Input, fuzz::limits(), fuzz::differentialTarget()->asmInfo()) ||
      checkMetadataYaml(*Input))
    return 0;
  std::optional<std::vector<PlacedInstruction>> Reconstructed =
      assemble(*Input, ExpansionLines::Reconstruct);
  if (!Reconstructed)
    return 0;
  std::optional<std::vector<PlacedInstruction>> FromMC =
      assemble(*Input, ExpansionLines::FromParser);
  if (!FromMC)
    return 0; // an error of `-g` assembly alone: the reader never asks for it here
  fuzz::check(FromMC->size() == Reconstructed->size(),
              "the two parses make different instructions");
  for (size_t I = 0; I < FromMC->size(); ++I) {
    PlacedInstruction Ours = (*Reconstructed)[I], Theirs = (*FromMC)[I];
    if (Theirs.Line == 0 || Ours == Theirs)
      continue;
    std::fprintf(stderr, "instruction %zu: reconstructed on line %u, MC says line %u\n", I,
                 Ours.Line, Theirs.Line);
    fuzz::check(false, "the reconstructed expansion line is not MC's");
  }
  return 0;
}

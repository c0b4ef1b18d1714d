//===- AccumulateInstructionSizePass.cpp - Code bytes per kernel ----------===//
#include "stinkytofu/transforms/AccumulateInstructionSizePass.h"

#include "stinkytofu/analysis/BranchRange.h"
#include "stinkytofu/analysis/InstructionSizes.h"
#include "stinkytofu/hw/InstructionPrefetch.h"
#include "stinkytofu/ir/KernelDescriptor.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace stinkytofu {

namespace {

class AccumulateInstructionSizePass final : public Pass {
public:
  explicit AccumulateInstructionSizePass(bool Debug) : Debug(Debug) {}
  StringRef name() const override {
    return Debug ? "AccumulateInstructionSizeDebugPass" : "AccumulateInstructionSizePass";
  }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    InstructionSizes Sizes(M);
    std::optional<uint64_t> MaxLines = maxInstPrefLines(M.target());
    for (Function &F : M.functions()) {
      std::optional<KernelDescriptor> KD = KernelDescriptor::find(M, F.name());
      // A kernel's entry is 256-byte aligned (the code object ABI), so
      // padding inside it is known; another function's start is not.
      Expected<ByteRange> Bytes = measure(M, F, Sizes, KD.has_value());
      if (!Bytes)
        return Bytes.takeError();
      raw_ostream &OS = context().statsStream();
      OS << name() << ": " << F.name() << ": ";
      if (Bytes->Lo == Bytes->Hi)
        OS << Bytes->Lo << " bytes";
      else
        OS << Bytes->Lo << ".." << Bytes->Hi << " bytes (its start's alignment unknown)";
      if (KD && MaxLines) {
        uint64_t Lines = std::min(divideCeil(Bytes->Hi, InstCacheLineBytes), *MaxLines);
        if (KD->integer(KernelDescriptor::instPrefSizeKey()) != Lines)
          if (Error E = KD->setInstPrefSize(M, Lines))
            return std::move(E);
        OS << ", " << KernelDescriptor::instPrefSizeKey() << " " << Lines;
      }
      OS << "\n";
    }
    // Only descriptor text changes: no instruction, block or edge.
    return PreservedAnalyses::all();
  }

private:
  /// The bytes of \p F from its symbol to its end; exact when its start
  /// is \p Aligned to every alignment inside it.
  Expected<ByteRange> measure(const Module &M, const Function &F, InstructionSizes &Sizes,
                              bool Aligned) {
    raw_ostream &OS = context().statsStream();
    ByteRange Offset;
    auto Print = [&](ByteRange Bytes, StringRef Text) {
      OS << format("  %6llu %4llu  ", (unsigned long long)Offset.Lo,
                   (unsigned long long)Bytes.Hi)
         << Text << "\n";
    };
    auto AddDirectives = [&](StringRef Text) {
      std::optional<uint64_t> At;
      if (Aligned && Offset.Lo == Offset.Hi)
        At = Offset.Lo;
      ByteRange Bytes = directiveBytes(Text, At);
      if (Debug && Bytes.Hi)
        Print(Bytes, Text.trim().take_until([](char C) { return C == '\n'; }));
      Offset += Bytes;
    };
    if (Debug)
      OS << name() << ": " << F.name() << ": offset, bytes, statement\n";
    for (const BasicBlock &BB : F.blocks()) {
      AddDirectives(BB.leadingText());
      if (Debug && !BB.label().empty())
        OS << format("  %6llu       ", (unsigned long long)Offset.Lo) << BB.label() << ":\n";
      for (const BlockItem &Item : BB.items()) {
        if (const auto *D = dyn_cast<Directive>(&Item)) {
          AddDirectives(D->text());
          continue;
        }
        const Instruction &I = cast<Instruction>(Item);
        if (I.kind() == InstKind::Opaque || I.kind() == InstKind::Pseudo) {
          SourceLocation L = I.location();
          return sourceError(M.fileName(), L.Line, L.Column, I.sourceText().rtrim("\r\n"),
                             name() + ": '" + I.mnemonic() +
                                 "' has no encoding whose size MC knows");
        }
        ByteRange Bytes = Sizes.of(I);
        if (Debug)
          Print(Bytes, StringRef(instructionText(I)).trim());
        Offset += Bytes;
      }
    }
    return Offset;
  }

  bool Debug;
};

} // namespace

Expected<std::unique_ptr<Pass>> createAccumulateInstructionSizePass(const PassArguments &Args) {
  return createArgumentlessPass<AccumulateInstructionSizePass>(Args, false);
}

Expected<std::unique_ptr<Pass>>
createAccumulateInstructionSizeDebugPass(const PassArguments &Args) {
  return createArgumentlessPass<AccumulateInstructionSizePass>(Args, true);
}

} // namespace stinkytofu

//===- SsaLiftPasses.cpp - The reference's SSA lift, as an analysis -------===//
#include "stinkytofu/transforms/SsaLiftPasses.h"

#include "stinkytofu/analysis/LaneLiveness.h"
#include "stinkytofu/analysis/RegisterWebs.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/RegisterAllocationPass.h"
#include "stinkytofu/transforms/RewriteSupport.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// Builds each function's register webs over \p Files (its CFG first where
/// it has none) and hands them to \p Report after "<pass>: <function>: " on
/// the statistics stream; a function whose webs cannot be built gets
/// \p Failed and the reason. True when a CFG was built.
bool reportWebs(Module &M, StringRef PassName, raw_ostream &OS, const WebFiles &Files,
                StringRef Failed, function_ref<void(const RegisterWebs &)> Report) {
  bool Built = false;
  for (Function &F : M.functions()) {
    if (!F.hasValidCFG()) {
      buildCFG(F);
      Built = true;
    }
    Liveness L(F);
    LaneLiveness LL(L);
    Expected<RegisterWebs> Webs = RegisterWebs::build(F, L, LL, Files);
    OS << PassName << ": " << F.name() << ": ";
    if (!Webs) {
      OS << Failed << ": " << toString(Webs.takeError()) << "\n";
      continue;
    }
    Report(*Webs);
  }
  return Built;
}

class LiftAsmRegistersToSSAPass final : public Pass {
public:
  LiftAsmRegistersToSSAPass(WebFiles Files, bool Strict) : Files(Files), Strict(Strict) {}
  StringRef name() const override { return "LiftAsmRegistersToSSAPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    raw_ostream &OS = context().statsStream();
    bool Built = reportWebs(M, name(), OS, Files, "not lifted", [&](const RegisterWebs &Webs) {
      unsigned FromOutside = Webs.entryWebs();
      if (Strict && FromOutside) {
        OS << "not lifted: " << FromOutside
           << " value(s) read with no reaching definition (strictLiveIns)\n";
        return;
      }
      OS << "lifted " << Webs.webs().size() << " value(s), " << FromOutside << " from outside\n";
    });
    return Built ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  WebFiles Files;
  bool Strict;
};

/// The reference adds each vector destination written under a narrowed EXEC
/// to its instruction's sources so its allocator keeps the lanes the write
/// leaves alone. The webs make that tie themselves (a write whose other
/// lanes are read later continues the old value's web), so this names the
/// writes they tie and changes nothing.
class TieExecMaskedWritesPass final : public Pass {
public:
  StringRef name() const override { return "TieExecMaskedWritesPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    raw_ostream &OS = context().statsStream();
    WebFiles VectorFiles{};
    VectorFiles[unsigned(PressureFile::VGPR)] = VectorFiles[unsigned(PressureFile::AGPR)] = true;
    bool Built =
        reportWebs(M, name(), OS, VectorFiles, "not examined", [&](const RegisterWebs &Webs) {
          const std::vector<const Instruction *> &Tied = Webs.laneKeepingWrites();
          if (Tied.empty()) {
            OS << "no exec-masked vector write keeps lanes read later\n";
            return;
          }
          OS << Tied.size()
             << " exec-masked vector write(s) keep lanes read later, tied to the old value: line"
             << (Tied.size() > 1 ? "s" : "");
          constexpr size_t LinesShown = 8;
          const char *Separator = " ";
          for (const Instruction *I : ArrayRef(Tied).take_front(LinesShown)) {
            OS << Separator << I->location().Line;
            Separator = ", ";
          }
          OS << (Tied.size() > LinesShown ? ", ...\n" : "\n");
        });
    return Built ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

class RemoveDefUseAnalysisPass final : public Pass {
public:
  StringRef name() const override { return "RemoveDefUseAnalysisPass"; }
  Expected<PreservedAnalyses> run(Module &, AnalysisManager &, const PassScope &) override {
    return PreservedAnalyses::all();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createLiftAsmRegistersToSSAPass(const PassArguments &Args) {
  std::string Classes = "vs";
  PassArguments Flags;
  for (const auto &Arg : Args)
    if (Arg.first == "classes")
      Classes = Arg.second;
    else
      Flags.push_back(Arg);
  bool Strict = false, NoVerify = false;
  if (Error E = parseFlagArguments(Flags, {{"strictLiveIns", &Strict}, {"noVerify", &NoVerify}}))
    return std::move(E);
  Expected<WebFiles> Files = parseRegisterClasses(Classes);
  if (!Files)
    return Files.takeError();
  return std::make_unique<LiftAsmRegistersToSSAPass>(*Files, Strict);
}

Expected<std::unique_ptr<Pass>> createTieExecMaskedWritesPass(const PassArguments &Args) {
  return createArgumentlessPass<TieExecMaskedWritesPass>(Args);
}

Expected<std::unique_ptr<Pass>> createRemoveDefUseAnalysisPass(const PassArguments &Args) {
  return createArgumentlessPass<RemoveDefUseAnalysisPass>(Args);
}

} // namespace stinkytofu

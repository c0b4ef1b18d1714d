//===- SQTTInstrumentPass.cpp - SQTT markers in final assembly ------------===//
#include "asm-instrument/sqtt/SQTTInstrumentPass.h"
#include "asm-instrument/funcmap/FuncMap.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"
#include "asm-instrument/sqtt/AddressTrace.h"
#include "asm-instrument/sqtt/BarrierMarkers.h"
#include "asm-instrument/sqtt/ClauseSites.h"
#include "asm-instrument/sqtt/FunctionMarkers.h"
#include "asm-instrument/sqtt/LoopMarkers.h"
#include "asm-instrument/sqtt/MarkerDensity.h"
#include "asm-instrument/sqtt/MarkerEmitter.h"
#include "asm-instrument/sqtt/MemoryMarkers.h"
#include "asm-instrument/sqtt/ModuleLiveness.h"
#include "asm-instrument/sqtt/RegisterBudget.h"
#include "asm-instrument/sqtt/SourceLocations.h"
#include "asm-instrument/sqtt/UserMarkers.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/transforms/BranchRelaxationPass.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/InsertionVerifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace stinkytofu::sqtt {

Expected<std::unique_ptr<Pass>>
createSQTTInstrumentPass(const StringMap<std::string> &Environment, const PassArguments &Args) {
  Expected<SQTTConfig> C =
      SQTTConfig::fromEnvironment([&](StringRef Name) -> std::optional<std::string> {
        auto It = Environment.find(Name);
        if (It == Environment.end())
          return std::nullopt;
        return It->second;
      });
  if (!C)
    return C.takeError();
  if (Error E = C->applyArguments(Args))
    return std::move(E);
  return std::make_unique<SQTTInstrumentPass>(std::move(*C));
}

std::string funcmapAsmBlock(StringRef Text) {
  std::string Out = "\t.section\t.sqtt_funcmap,\"\",@progbits\n\t.asciz\t\"";
  for (unsigned char C : Text) {
    if (C == '\n')
      Out += "\\n";
    else if (C == '"' || C == '\\')
      (Out += '\\') += C;
    else if (C < 0x20 || C >= 0x7F) {
      char Buf[5];
      snprintf(Buf, sizeof(Buf), "\\%03o", C);
      Out += Buf;
    } else
      Out += C;
  }
  Out += "\"\n";
  return Out;
}

namespace {

/// The marker IDs numeric markers of the input already use: the value of an
/// `s_ttracedata_imm`, or the constant last moved into M0 in the same block
/// before an `s_ttracedata`.
void reserveInputIds(const Module &M, MarkerIdAllocator &Ids) {
  // Facts name registers canonically: a write of M0 names this one.
  const MCRegister M0Reg = M.target().findRegister("M0");
  const MCInstrInfo &MII = M.target().instrInfo();
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks()) {
      std::optional<int64_t> M0;
      for (const Instruction &I : BB.instructions()) {
        if (I.kind() != InstKind::Machine) {
          M0.reset();
          continue;
        }
        // Trace records are MC's S_TTRACEDATA* opcodes: anything else
        // that does not write M0 needs no mnemonic.
        const bool WritesM0 = llvm::is_contained(I.facts().Defs, M0Reg);
        if (!WritesM0 && !MII.getName(I.facts().Opcode).starts_with("S_TTRACEDATA"))
          continue;
        StringRef Mn = I.mnemonic();
        if (Mn == "s_ttracedata_imm" && I.numOperands() == 1 && I.operand(0).immediate()) {
          Ids.reserve(uint32_t(*I.operand(0).immediate()) >> 2);
          continue;
        }
        if (Mn == "s_ttracedata") {
          if (M0)
            Ids.reserve(uint32_t(*M0) >> 2);
          continue;
        }
        if (!WritesM0)
          continue;
        M0.reset();
        if ((Mn == "s_mov_b32" || Mn == "s_movk_i32") && I.numOperands() == 2)
          M0 = I.operand(1).immediate();
      }
    }
}

/// An error of the whole module: `<file>: error: <message>`.
Error moduleError(const Module &M, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), M.fileName() + ": error: " + Msg);
}

Error moduleError(const Module &M, Error E) {
  return moduleError(M, toString(std::move(E)));
}

/// An error when \p F, which the funcmap will name, has a name the funcmap
/// cannot hold (MC accepts labels such as `k@x`; `@` starts a source
/// location there), at the function's label.
Error checkFuncmapName(const Module &M, const Function &F) {
  std::optional<std::string> Bad = funcmap::checkName(F.name());
  if (!Bad)
    return Error::success();
  SourceLocation L = F.blocks().empty() ? SourceLocation() : F.blocks().front().location();
  std::string Where = M.fileName().str();
  if (L.isValid())
    Where += ":" + std::to_string(L.Line) + ":" + std::to_string(L.Column);
  return createStringError(inconvertibleErrorCode(),
                           Where + ": error: SQTTInstrumentPass: function '" + F.name() +
                               "' cannot be named in the funcmap: " + *Bad);
}

bool inPassScope(const Module &M, const PassScope &Scope, const MarkerSite &S) {
  return Scope.isWholeModule() || (S.Origin && inScope(M, Scope, *S.Origin));
}

} // namespace

Expected<PreservedAnalyses> SQTTInstrumentPass::run(Module &M, AnalysisManager &AM,
                                                    const PassScope &Scope) {
  const HardwareModel &HW = M.target().hardware();
  if (Error E = Config.checkTarget(HW))
    return moduleError(M, std::move(E));
  Expected<std::vector<ScopeDimCheck>> Checks = scopeChecks(Config.Scope, HW);
  if (!Checks)
    return moduleError(M, Checks.takeError());
  if (Config.FuncmapInAsm)
    for (const ModuleItem &Item : M.items())
      if (Item.K == ModuleItem::Kind::Text && Item.Contents.contains(".sqtt_funcmap"))
        return moduleError(M, "the input already has a .sqtt_funcmap section; "
                              "funcmap-in-asm would add a second");

  std::vector<Function *> Funcs;
  for (Function &F : M.functions()) {
    if (!F.hasValidCFG())
      buildCFG(F);
    Funcs.push_back(&F);
  }

  // 1. Plan. Named markers first: their IDs come before the functions'.
  MarkerIdAllocator Ids;
  reserveInputIds(M, Ids);
  DenseMap<Function *, std::vector<MarkerSite>> SitesOf;
  bool AnyPayload = false;
  for (Function *F : Funcs) {
    Expected<std::vector<MarkerSite>> U = userMarkerSites(*F, Ids);
    if (!U)
      return U.takeError();
    for (MarkerSite &S : *U)
      AnyPayload |= S.Payload.has_value();
    SitesOf[F] = std::move(*U);
  }
  if (Config.Addresses.any() && Config.memoryEnabled())
    return moduleError(M, "SQTT_TRACE_ADDRESSES (addresses=) and SQTT_INSTRUMENT_MEMORY "
                          "(memory=) are mutually exclusive: address tracing already "
                          "marks every memory operation");
  if (Config.Addresses.any() && Config.ShaderClockBits != 0)
    return moduleError(M, "invalid SQTT_SHADER_CLOCK_BITS='" +
                              std::to_string(Config.ShaderClockBits) +
                              "': address traces record payloads, which need "
                              "SQTT_SHADER_CLOCK_BITS=0");
  if (AnyPayload && Config.ShaderClockBits != 0)
    return moduleError(M, "invalid SQTT_SHADER_CLOCK_BITS='" +
                                 std::to_string(Config.ShaderClockBits) +
                                 "': sqtt_marker_data records a payload "
                                 "(R:extra_payload_count=1), which needs "
                                 "SQTT_SHADER_CLOCK_BITS=0");
  SourceLocations Locs(M);
  auto Add = [&](Function *F, std::vector<MarkerSite> New) {
    for (MarkerSite &S : New)
      if (inPassScope(M, Scope, S))
        SitesOf[F].push_back(std::move(S));
  };
  for (Function *F : Funcs)
    if (F->isEntry())
      if (Error E = checkFuncmapName(M, *F))
        return std::move(E);
  if (Config.functionsEnabled())
    for (Function *F : Funcs)
      if (!F->isEntry() && functionSize(*F, Config.FunctionMode) > Config.FunctionThreshold) {
        if (Error E = checkFuncmapName(M, *F))
          return std::move(E);
        unsigned H = Ids.addFunction(F->name(), Locs.of(*F));
        Add(F, functionSites(*F, H));
      }
  for (Function *F : Funcs) {
    if (Config.InstrumentBarriers)
      Add(F, barrierSites(*F));
    if (Config.memoryEnabled())
      Add(F, memorySites(*F, Config.MemoryChunk, Config.MemoryMaxGap));
    if (Config.Addresses.any())
      Add(F, addressTraceSites(*F, Config.Addresses, Ids, Locs));
  }
  // Loops on the CFG as read: loop-phase scopes and the density report.
  const bool Density = Config.Stats || Config.DensityWarn;
  DenseMap<Function *, std::unique_ptr<FunctionLoops>> LoopsOf;
  if (Config.Loops != LoopMode::Off || Density)
    for (Function *F : Funcs)
      LoopsOf[F] = std::make_unique<FunctionLoops>(*F);
  if (Config.Loops != LoopMode::Off)
    for (Function *F : Funcs)
      Add(F, loopSites(*F, LoopsOf[F]->LI, Config.Loops, Ids, context()));
  for (Function *F : Funcs)
    placeOutsideClauses(*F, SitesOf[F]);
  std::vector<FunctionDensity> Densities;
  if (Density)
    for (Function *F : Funcs)
      Densities.push_back(measureDensity(*F, LoopsOf[F]->LI, SitesOf[F]));

  // 2. IDs.
  for (Function *F : Funcs)
    countSites(SitesOf[F], Ids);
  Ids.assign(Config.InstrumentBarriers, Config.memoryEnabled());
  if (Config.ShaderClockBits != 0 &&
      Ids.maxId() >= (uint64_t(1) << (30 - Config.ShaderClockBits)))
    return moduleError(M, "SQTT_SHADER_CLOCK_BITS=" + std::to_string(Config.ShaderClockBits) +
                              " leaves " + std::to_string(30 - Config.ShaderClockBits) +
                              " bits for marker IDs, too few for ID " +
                              std::to_string(Ids.maxId()));

  // 3. Liveness of every function on the unchanged module, then emission.
  LivenessMap LiveOf =
      markerLivenessOf(M, Funcs, [&](Function &F) { return !SitesOf[&F].empty(); });
  std::unique_ptr<InsertionSnapshot> Snapshot;
  if (Config.Verify)
    Snapshot = std::make_unique<InsertionSnapshot>(M);
  EmitContext Ctx(M, context(), Config, Ids, std::move(*Checks));
  std::vector<std::pair<Function *, EmitStats>> Stats;
  bool Changed = false;
  for (Function *F : Funcs) {
    EmitStats S;
    bool HadPseudo = false;
    for (const MarkerSite &Site : SitesOf[F])
      HadPseudo |= Site.Kind == SiteKind::User;
    if (!SitesOf[F].empty()) {
      Expected<EmitStats> R = emitMarkers(*F, std::move(SitesOf[F]), *LiveOf[F], Ctx);
      if (!R)
        return R.takeError();
      S = *R;
    }
    if (HadPseudo)
      eraseUserMarkers(*F);
    if (S.Added || HadPseudo) {
      buildCFG(*F);
      Changed = true;
    }
    // Scratch SGPRs above the kernel's own: grow its descriptor.
    if (F->isEntry() && LiveOf.count(F) && S.SGPRHighWater > LiveOf[F]->budget().Budget)
      if (Error E = growKernelSGPRs(M, F->name(), S.SGPRHighWater))
        return moduleError(M, std::move(E));
    // A VGPR above the kernel's own for parked SGPRs (growableVGPR).
    if (F->isEntry() && LiveOf.count(F) && S.VGPRHighWater > LiveOf[F]->vgprBudget())
      if (Error E = growKernelVGPRs(M, F->name(), S.VGPRHighWater))
        return moduleError(M, std::move(E));
    Stats.emplace_back(F, S);
  }

  // 4. Funcmap.
  Map = funcmap::FuncMap();
  if (Config.ShaderClockBits != 0)
    Map.setMarkerEncoding({Config.ShaderClockBits, Config.ShaderClockShift});
  for (const LedgerEntry &E : Ids.entries())
    if (E.Kind == LedgerKind::Function)
      Map.addFunction(E.Id, E.Name, E.SourceLoc);
  for (Function *F : Funcs)
    if (F->isEntry())
      Map.addKernel(F->name(), Locs.of(*F));
  for (const SourceLocations::CodelessKernel &K : Locs.codelessKernels())
    Map.addKernel(K.Name, K.SourceLoc);
  for (const LedgerEntry &E : Ids.entries()) {
    if (E.Kind == LedgerKind::UserScope)
      Map.addUserScope(E.Id, E.Name);
    else if (E.Kind == LedgerKind::UserPoint)
      Map.addUserPoint(E.Id, E.Name, "", E.ExtraPayloadCount);
  }
  for (SystemMarker S : {SystemMarker::BarrierSignal, SystemMarker::BarrierWait,
                         SystemMarker::Barrier, SystemMarker::VmemLoad, SystemMarker::VmemStore})
    if (uint32_t Id = Ids.systemId(S))
      Map.addSystemPoint(Id, systemMarkerName(S));
  bool AnyTrace = false;
  for (const LedgerEntry &E : Ids.entries())
    if (E.Kind == LedgerKind::AddressTrace) {
      Map.addAddressTracePoint(E.Id, E.Name, E.SourceLoc, E.ExtraPayloadCount);
      AnyTrace = true;
    }
  if (AnyTrace) // W: comes with the first address-trace row
    Map.setWaveSize(traceWaveSize(M.target()));
  if (Error E = Map.verify())
    return moduleError(M, "SQTTInstrumentPass: the funcmap does not verify: " +
                              toString(std::move(E)));
  // The driver writes the funcmap file and patches the code object once
  // the whole run has succeeded; this pass's funcmap replaces an earlier
  // pass's.
  if (!Config.FuncmapOut.empty())
    artifacts().addFile(Config.FuncmapOut, funcmap::printFuncMap(Map));
  if (Config.FuncmapInAsm || Map.empty())
    artifacts().removeObjectSection(funcmap::FuncMapSectionName);
  else
    artifacts().setObjectSection(funcmap::FuncMapSectionName, funcmap::funcMapSectionContents(Map));
  if (Config.FuncmapInAsm && !Map.empty()) {
    std::string Block = funcmapAsmBlock(funcmap::printFuncMap(Map));
    if (M.endsWithoutNewline()) {
      Block.insert(0, "\n");
      M.setEndsWithoutNewline(false);
    }
    M.appendText(TextKind::Data, M.save(Block));
    Changed = true;
  }

  // 5. Verification and statistics.
  if (Snapshot) {
    DenseMap<const Function *, const Liveness *> Original;
    DenseMap<const Function *, const BitVector *> LanesAfterReturn;
    for (auto &[F, L] : LiveOf) {
      Original[F] = &L->core();
      if (const BitVector *Lanes = L->lanesAfterReturn())
        LanesAfterReturn[F] = Lanes;
    }
    if (Error E =
            Snapshot->verify(M, Ctx.Inserted, Ctx.InsertedBlocks, Original, &LanesAfterReturn))
      return moduleError(M, std::move(E));
  }
  // Short branches the markers pushed out of range become long branches,
  // once the verifier has checked the markers against the original code.
  for (auto &[F, S] : Stats)
    if (S.BranchesToRelax)
      if (Expected<unsigned> N = relaxBranches(*F, Ctx.Factory.builder(), LiveOf[F]->options());
          !N)
        return N.takeError();
  if (Config.Stats) {
    raw_ostream &OS = context().statsStream();
    EmitStats Total;
    for (auto &[F, S] : Stats) {
      printStats(F->name(), F->isEntry(), S, OS);
      Total += S;
    }
    printStats("", false, Total, OS);
    for (const FunctionDensity &D : Densities)
      printDensity(D, OS);
  }
  for (const FunctionDensity &D : Densities)
    warnDensity(D, Config.DensityWarn.value_or(SQTTConfig::DefaultDensityWarn), M, context());
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace stinkytofu::sqtt

//===- ObjectEmitter.cpp - Assemble a module into an ELF object -----------===//
#include "stinkytofu/emit/ObjectEmitter.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// Both MC diagnostic paths (the parser's, through the SourceMgr, and
/// MCContext::reportError, e.g. relocation errors while the object is
/// written) end here: warnings are reported at once, errors kept.
struct DiagnosticSink {
  const DiagnosticHandler &Warnings;
  std::string Errors;

  void take(const SMDiagnostic &D) {
    if (D.getKind() == SourceMgr::DK_Error)
      Errors += renderDiagnostic(D);
    else if (Warnings)
      Warnings(toSourceDiagnostic(D));
  }
};

} // namespace

Expected<std::string> assembleObject(StringRef AsmText, const TargetInfo &Target,
                                     const ObjectEmitOptions &Opts) {
  DiagnosticSink Sink{Opts.Warnings, {}};
  SourceMgr SrcMgr;
  SrcMgr.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(AsmText, Opts.BufferName,
                                                       /*RequiresNullTerminator=*/false),
                            SMLoc());
  // `.include` and `.incbin` resolve against the working directory, as in llvm-mc.
  SrcMgr.setVirtualFileSystem(vfs::getRealFileSystem());
  SrcMgr.setDiagHandler(
      [](const SMDiagnostic &D, void *Context) { static_cast<DiagnosticSink *>(Context)->take(D); },
      &Sink);

  // llvm-mc's object setup: no PIC, small code model, DWARF 4 (only used when
  // the text carries debug directives), the working directory as the
  // compilation directory.
  const llvm::Target &T = Target.target();
  MCContext Ctx(Target.triple(), &Target.asmInfo(), &Target.regInfo(), &Target.subtargetInfo(),
                &SrcMgr, &Target.targetOptions());
  Ctx.setDiagnosticHandler([&Sink](const SMDiagnostic &D, bool, const SourceMgr &,
                                   std::vector<const MDNode *> &) { Sink.take(D); });
  std::unique_ptr<MCObjectFileInfo> MOFI(
      T.createMCObjectFileInfo(Ctx, /*PIC=*/false, /*LargeCodeModel=*/false));
  Ctx.setObjectFileInfo(MOFI.get());
  Ctx.setDwarfVersion(4);
  SmallString<128> CWD;
  if (!sys::fs::current_path(CWD))
    Ctx.setCompilationDir(CWD);

  SmallString<0> Bytes;
  raw_svector_ostream OS(Bytes);
  std::unique_ptr<MCCodeEmitter> CE(T.createMCCodeEmitter(Target.instrInfo(), Ctx));
  std::unique_ptr<MCAsmBackend> MAB(
      T.createMCAsmBackend(Target.subtargetInfo(), Target.regInfo(), Target.targetOptions()));
  if (!CE || !MAB)
    return createStringError(inconvertibleErrorCode(),
                             "LLVM MC cannot write objects for " + Target.processor());
  std::unique_ptr<MCObjectWriter> OW = MAB->createObjectWriter(OS);
  std::unique_ptr<MCStreamer> Streamer(T.createMCObjectStreamer(
      Target.triple(), Ctx, std::move(MAB), std::move(OW), std::move(CE),
      Target.subtargetInfo()));

  bool Failed;
  {
    TargetAsmParser Parser = Target.createAsmParser(SrcMgr, Ctx, *Streamer);
    if (!Parser.TargetParser)
      return createStringError(inconvertibleErrorCode(),
                               "LLVM MC has no assembly parser for " + Target.processor());
    Failed = Parser.Parser->Run(/*NoInitialTextSection=*/false);
  }
  if (Failed || Ctx.hadError() || !Sink.Errors.empty()) {
    if (Sink.Errors.empty())
      Sink.Errors = Opts.BufferName + ": error: LLVM MC could not assemble the module";
    return createStringError(inconvertibleErrorCode(), StringRef(Sink.Errors).rtrim("\n"));
  }
  return std::string(Bytes.str());
}

Expected<std::string> emitObject(const Module &M, DiagnosticHandler Warnings) {
  std::string Asm;
  raw_string_ostream AsmOS(Asm);
  if (Error E = writeAsm(M, AsmOS))
    return std::move(E);
  ObjectEmitOptions Opts;
  Opts.BufferName = (M.fileName() + " (rewritten)").str();
  Opts.Warnings = std::move(Warnings);
  return assembleObject(Asm, M.target(), Opts);
}

} // namespace stinkytofu

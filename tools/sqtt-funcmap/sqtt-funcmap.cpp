//===- sqtt-funcmap.cpp - Patch, dump and extract SQTT funcmaps -----------===//
//
//   sqtt-funcmap patch IN --funcmap FILE (-o OUT | --in-place)
//   sqtt-funcmap dump FILE [--demangle] [--json]
//   sqtt-funcmap extract FILE -o DIR
//   sqtt-funcmap repack FILE --bundle-entry ID --code-object CO [--compress]
//                       [--bundle-only] -o OUT
//
// Wires options to the asm_instrument library and nothing else. Errors are
// `sqtt-funcmap: error: FILE: reason`, exit code 1, and no output file.
// docs/sqtt-funcmap.md describes the commands.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/object/BundleWriter.h"
#include "stinkytofu/object/CodeObjectScanner.h"
#include "stinkytofu/object/ElfImage.h"
#include "asm-instrument/elf/FuncMapPatcher.h"
#include "asm-instrument/elf/FuncMapReport.h"
#include "stinkytofu/support/PendingOutputs.h"
#include "asm-instrument/funcmap/FuncMapParser.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace stinkytofu;

namespace {
const char *const ToolName = "sqtt-funcmap";

cl::OptionCategory Category("sqtt-funcmap options");

cl::SubCommand PatchCmd("patch", "Add or replace the .sqtt_funcmap section of a code object");
cl::SubCommand DumpCmd("dump", "Print the funcmap of every AMDGPU code object in a file");
cl::SubCommand ExtractCmd("extract",
                          "Write every AMDGPU code object of a bundle or fat binary to a directory");
cl::SubCommand RepackCmd("repack",
                         "Write a new offload bundle (or host ELF) with one entry's code "
                         "object replaced");

cl::opt<std::string> PatchInput(cl::Positional, cl::Required, cl::desc("<input code object>"),
                                cl::sub(PatchCmd), cl::cat(Category));
cl::opt<std::string> FuncMapFile("funcmap", cl::Required, cl::desc("Funcmap text to put in"),
                                 cl::value_desc("file"), cl::sub(PatchCmd), cl::cat(Category));
cl::opt<bool> InPlace("in-place", cl::desc("Replace the input file"), cl::sub(PatchCmd),
                      cl::cat(Category));
cl::opt<std::string> Output("o", cl::desc("Output file (patch, repack) or directory (extract)"),
                            cl::value_desc("path"), cl::sub(PatchCmd), cl::sub(ExtractCmd),
                            cl::sub(RepackCmd), cl::cat(Category));

cl::opt<std::string> DumpInput(cl::Positional, cl::Required,
                               cl::desc("<code object, offload bundle or host ELF>"),
                               cl::sub(DumpCmd), cl::cat(Category));
cl::opt<bool> Demangle("demangle", cl::desc("Demangle function and kernel names"),
                       cl::sub(DumpCmd), cl::cat(Category));
cl::opt<bool> Json("json", cl::desc("Print JSON instead of the table"), cl::sub(DumpCmd),
                   cl::cat(Category));

cl::opt<std::string> ExtractInput(cl::Positional, cl::Required,
                                  cl::desc("<offload bundle, host ELF or code object>"),
                                  cl::sub(ExtractCmd), cl::cat(Category));

cl::opt<std::string> RepackInput(cl::Positional, cl::Required,
                                 cl::desc("<offload bundle or host ELF>"), cl::sub(RepackCmd),
                                 cl::cat(Category));
cl::opt<std::string> BundleEntry("bundle-entry", cl::Required,
                                 cl::desc("The entry to replace: its id, or a target id"),
                                 cl::value_desc("id"), cl::sub(RepackCmd), cl::cat(Category));
cl::opt<std::string> NewCodeObject("code-object", cl::Required,
                                   cl::desc("The code object that replaces the entry's"),
                                   cl::value_desc("file"), cl::sub(RepackCmd), cl::cat(Category));
cl::opt<bool> Compress("compress",
                       cl::desc("Write the new bundle in clang-offload-bundler's compressed "
                                "format"),
                       cl::sub(RepackCmd), cl::cat(Category));
cl::opt<bool> BundleOnly("bundle-only",
                         cl::desc("Of a host ELF, write the new bundle, not a new host ELF"),
                         cl::sub(RepackCmd), cl::cat(Category));

int fail(StringRef File, const Twine &Msg) {
  WithColor::error(errs(), ToolName) << (File.empty() ? "" : File + ": ") << Msg << "\n";
  return 1;
}

int fail(StringRef File, Error E) {
  std::string Msg = toString(std::move(E));
  return fail(File, Msg);
}

void warn(StringRef File, const Twine &Msg) {
  WithColor::warning(errs(), ToolName) << File << ": " << Msg << "\n";
}

Expected<std::unique_ptr<MemoryBuffer>> readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return errorCodeToError(Buf.getError());
  return std::move(*Buf);
}

int runPatch() {
  if (InPlace == !Output.empty())
    return fail("", InPlace ? "--in-place and -o exclude each other"
                            : "patch needs -o OUT or --in-place");
  StringRef OutPath = InPlace ? StringRef(PatchInput) : StringRef(Output);

  Expected<std::unique_ptr<MemoryBuffer>> MapText = readFile(FuncMapFile);
  if (!MapText)
    return fail(FuncMapFile, MapText.takeError());
  Expected<funcmap::FuncMap> Map =
      funcmap::parseFuncMap((*MapText)->getBuffer(), funcmap::ParseMode::Strict);
  if (!Map) {
    int Rc = 0;
    handleAllErrors(
        Map.takeError(),
        [&](const funcmap::FuncMapParseError &E) {
          Rc = fail((FuncMapFile + ":" + Twine(E.line())).str(), E.reason());
        },
        [&](const ErrorInfoBase &E) { Rc = fail(FuncMapFile, E.message()); });
    return Rc;
  }
  if (Error E = Map->verify())
    return fail(FuncMapFile, std::move(E));

  Expected<std::unique_ptr<MemoryBuffer>> In = readFile(PatchInput);
  if (!In)
    return fail(PatchInput, In.takeError());
  Expected<std::string> Patched =
      elf::patchFuncMapSection((*In)->getBuffer(), funcmap::funcMapSectionContents(*Map));
  if (!Patched)
    return fail(PatchInput, Patched.takeError());

  std::optional<sys::fs::perms> Mode;
  sys::fs::file_status Status;
  if (!sys::fs::status(PatchInput, Status))
    Mode = Status.permissions();
  if (Error E = writeFileAtomically(OutPath, *Patched, Mode))
    return fail(OutPath, std::move(E));
  return 0;
}

std::string kindName(elf::InputKind K) {
  switch (K) {
  case elf::InputKind::CodeObject:
    return "code-object";
  case elf::InputKind::OffloadBundle:
    return "offload-bundle";
  case elf::InputKind::HostElf:
    return "host-elf";
  }
  return "";
}

int runDump() {
  Expected<std::unique_ptr<MemoryBuffer>> In = readFile(DumpInput);
  if (!In)
    return fail(DumpInput, In.takeError());
  Expected<elf::CodeObjectSet> Set = elf::findCodeObjects((*In)->getMemBufferRef());
  if (!Set)
    return fail(DumpInput, Set.takeError());

  elf::ReportOptions Opts;
  Opts.Demangle = Demangle;
  json::Array Objects;
  bool First = true;
  for (const elf::FoundCodeObject &CO : Set->Objects) {
    Expected<elf::ElfImage> Image = elf::ElfImage::create(CO.Bytes);
    if (!Image)
      return fail(DumpInput, Image.takeError());
    elf::FuncMapReport Report = elf::buildFuncMapReport(*Image, Opts);
    std::string Where = DumpInput + (CO.Origin.empty() ? "" : " [" + CO.TargetId + "]");
    for (const funcmap::FuncMapWarning &W : Report.Warnings)
      warn(Where, (W.Line ? ".sqtt_funcmap line " + Twine(W.Line) + ": " : Twine()) + W.Message);
    if (Json) {
      json::Object J = elf::funcMapReportToJSON(Report);
      J["target_id"] = CO.TargetId;
      J["origin"] = CO.Origin;
      Objects.push_back(std::move(J));
      continue;
    }
    if (Set->Kind != elf::InputKind::CodeObject) {
      outs() << (First ? "" : "\n") << "code object " << CO.TargetId << " (" << CO.Origin
             << "):\n";
    }
    elf::printFuncMapTable(Report, outs());
    First = false;
  }
  if (Json) {
    json::Object Root{{"file", DumpInput},
                      {"kind", kindName(Set->Kind)},
                      {"code_objects", std::move(Objects)}};
    outs() << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
  }
  return 0;
}

int runExtract() {
  if (Output.empty())
    return fail("", "extract needs -o DIR");
  Expected<std::unique_ptr<MemoryBuffer>> In = readFile(ExtractInput);
  if (!In)
    return fail(ExtractInput, In.takeError());
  Expected<elf::CodeObjectSet> Set = elf::findCodeObjects((*In)->getMemBufferRef());
  if (!Set)
    return fail(ExtractInput, Set.takeError());
  if (std::error_code EC = sys::fs::create_directories(Output))
    return fail(Output, errorCodeToError(EC));
  for (const elf::FoundCodeObject &CO : Set->Objects) {
    SmallString<256> Path(Output);
    sys::path::append(Path, CO.FileStem + ".co");
    if (Error E = writeFileAtomically(Path, CO.Bytes))
      return fail(Path, std::move(E));
    outs() << Path << (CO.Origin.empty() ? "" : "\t" + CO.Origin) << "\n";
  }
  return 0;
}

int runRepack() {
  if (Output.empty())
    return fail("", "repack needs -o OUT");
  // The original is never modified, not even through another path to it.
  if (sys::fs::equivalent(RepackInput, Output))
    return fail(Output, "is the input; repack writes a new file");
  Expected<std::unique_ptr<MemoryBuffer>> In = readFile(RepackInput);
  if (!In)
    return fail(RepackInput, In.takeError());
  Expected<std::unique_ptr<MemoryBuffer>> CodeObject = readFile(NewCodeObject);
  if (!CodeObject)
    return fail(NewCodeObject, CodeObject.takeError());
  Expected<elf::RepackedBundle> Repacked = elf::repackBundleEntry(
      (*In)->getBuffer(), BundleEntry, (*CodeObject)->getBuffer(),
      elf::RepackOptions{Compress, BundleOnly});
  if (!Repacked)
    return fail(RepackInput, Repacked.takeError());
  if (Error E = writeFileAtomically(Output, Repacked->Bytes))
    return fail(Output, std::move(E));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(argc, argv,
                              "Add, read and extract the .sqtt_funcmap of AMDGPU code objects\n");
  if (PatchCmd)
    return runPatch();
  if (DumpCmd)
    return runDump();
  if (ExtractCmd)
    return runExtract();
  if (RepackCmd)
    return runRepack();
  return fail("", "expected a subcommand: patch, dump, extract or repack (see --help)");
}

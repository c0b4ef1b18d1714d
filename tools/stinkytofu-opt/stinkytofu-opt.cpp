//===- stinkytofu-opt.cpp - Read, transform and write AMDGPU assembly -----===//
//
// Wires command-line options to the library: read `.s` or `.stir`, write
// assembly or `.stir`. Nothing but the requested output goes to stdout.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/parse/AsmReader.h"
#include "stinkytofu/parse/StirReader.h"
#include "stinkytofu/print/AsmWriter.h"
#include "stinkytofu/print/StirWriter.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace stinkytofu;

namespace {
cl::OptionCategory Category("stinkytofu-opt options");

cl::opt<std::string> InputFile(cl::Positional, cl::desc("<input .s or .stir>"),
                               cl::Required, cl::cat(Category));
cl::opt<std::string> OutputFile("o", cl::desc("Output file ('-' for stdout)"),
                                cl::value_desc("file"), cl::init("-"), cl::cat(Category));
cl::opt<std::string> Arch("arch",
                          cl::desc("Target processor when the input has no "
                                   ".amdgcn_target (default gfx942)"),
                          cl::value_desc("gfx"), cl::cat(Category));
cl::opt<bool> EmitAsm("emit-asm", cl::desc("Write assembly"), cl::cat(Category));
cl::opt<bool> PrintOutput("print-output", cl::desc("Write the textual IR (.stir)"),
                          cl::cat(Category));
cl::opt<bool> AllowUnknown(
    "allow-unknown-instructions",
    cl::desc("Keep statements LLVM MC rejects as opaque instructions that read "
             "and write every register (with a warning)"),
    cl::cat(Category));
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(argc, argv,
                              "stinkytofu-opt: read, transform and write AMDGPU assembly\n");
  if (EmitAsm && PrintOutput) {
    WithColor::error(errs(), "stinkytofu-opt") << "--emit-asm and --print-output exclude each other\n";
    return 1;
  }

  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFileOrSTDIN(InputFile);
  if (!Buffer) {
    WithColor::error(errs(), "stinkytofu-opt")
        << InputFile << ": " << Buffer.getError().message() << "\n";
    return 1;
  }
  ReaderOptions Opts;
  Opts.Arch = Arch;
  Opts.AllowUnknownInstructions = AllowUnknown;
  bool IsStir = StringRef(InputFile).ends_with(".stir");
  Expected<std::unique_ptr<Module>> M =
      IsStir ? readStir(std::move(*Buffer), Opts) : readAsm(std::move(*Buffer), Opts);
  if (!M) {
    errs() << toString(M.takeError()) << "\n";
    return 1;
  }

  bool WriteStir = PrintOutput || (IsStir && !EmitAsm);
  std::string Rendered;
  raw_string_ostream OS(Rendered);
  if (WriteStir)
    writeStir(**M, OS);
  else
    writeAsm(**M, OS);

  // Written only once everything succeeded: no half-written output.
  std::error_code EC;
  ToolOutputFile Out(OutputFile, EC, sys::fs::OF_None);
  if (EC) {
    WithColor::error(errs(), "stinkytofu-opt") << OutputFile << ": " << EC.message() << "\n";
    return 1;
  }
  Out.os() << Rendered;
  Out.keep();
  return 0;
}

//===- sqtt-trace-fixture.cpp - Scenario text to an ATT output directory --===//
//
//   sqtt-trace-fixture SCENARIO -o DIR
//
// The test and bench side of sqtt-trace: FixtureScenario.h describes the
// scenario language.
//
//===----------------------------------------------------------------------===//
#include "FixtureScenario.h"
#include "FixtureWriter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static cl::opt<std::string> Input(cl::Positional, cl::Required, cl::desc("<scenario>"));
static cl::opt<std::string> Output("o", cl::Required, cl::desc("Output directory"),
                                   cl::value_desc("dir"));
static cl::opt<std::string> Schema("schema",
                                   cl::desc("Override the scenario's version (3.0.0, 3.1.0)"));
static cl::opt<bool> Count("count", cl::desc("Print the number of records written"));

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv, "Write an SQTT trace scenario as rocprofv3 --att output\n");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFileOrSTDIN(Input);
  if (!Text) {
    WithColor::error(errs(), "sqtt-trace-fixture") << Input << ": " << Text.getError().message() << "\n";
    return 1;
  }
  Expected<fixture::Scenario> S = fixture::parseScenario(Input, (*Text)->getBuffer());
  if (S && !Schema.empty())
    S->Version = Schema;
  // `codeobject N from FILE`: FILE relative to the scenario's directory.
  if (S)
    for (auto &Entry : S->CodeObjects) {
      std::string &From = Entry.second.From;
      if (!From.empty() && sys::path::is_relative(From)) {
        SmallString<256> P(sys::path::parent_path(Input));
        sys::path::append(P, From);
        From = std::string(P);
      }
    }
  Expected<uint64_t> Written = S ? fixture::writeScenario(*S, Output) : S.takeError();
  if (!Written) {
    WithColor::error(errs(), "sqtt-trace-fixture") << toString(Written.takeError()) << "\n";
    return 1;
  }
  if (Count)
    outs() << *Written << " records\n";
  return 0;
}

//===- stinkytofu-opt.cpp - Read, transform and write AMDGPU assembly -----===//
//
// Wires command-line options to the library: read `.s` or `.stir`, run the
// passes named on the command line (in command-line order), write assembly,
// `.stir` or the CFG as Graphviz. Nothing but the requested output goes to
// stdout; reports (--time-passes, --print-after-all, --stats) go to stderr.
// docs/stinkytofu-opt.md describes every option.
//
//===----------------------------------------------------------------------===//
#include "BinaryInputOptions.h"
#include "CommentStripping.h"
#include "InputJobs.h"
#include "ReferenceOnlyOptions.h"
#include "ToolHeap.h"
#include "asm-instrument/InstrumentPasses.h"
#include "asm-instrument/elf/FuncMapPatcher.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"
#include "asm-instrument/sqtt/SQTTInstrumentPass.h"
#include "stinkytofu/analysis/CycleStats.h"
#include "stinkytofu/analysis/ModuleStats.h"
#include "stinkytofu/analysis/ScheduleValidator.h"
#include "stinkytofu/analysis/Verifier.h"
#include "stinkytofu/emit/CodeObjectLinker.h"
#include "stinkytofu/emit/ObjectEmitter.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/stir/StirReader.h"
#include "stinkytofu/pass/PassManager.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/passes/PipelineProof.h"
#include "stinkytofu/transforms/VgprMsbPasses.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/analysis/CfgDotWriter.h"
#include "stinkytofu/stir/StirWriter.h"
#include "stinkytofu/support/PendingOutputs.h"
#include "stinkytofu/support/StableSort.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/CallTargetRecoveryPass.h"
#include "stinkytofu/transforms/LongBranchLoweringPass.h"
#include "stinkytofu/transforms/PrintPressurePass.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;
using namespace stinkytofu;

namespace {
const char *const ToolName = "stinkytofu-opt";

cl::OptionCategory Category("stinkytofu-opt options");
cl::OptionCategory PassCategory("Passes (--<PassName>[=args]; run in command-line order)");
cl::OptionCategory ReferenceCategory(
    "The reference's options (its command lines run here; docs/passes.md, \"The reference's "
    "command line\")");

enum class CfgFormat { None, Dot };

/// The tool's own options. Built in main, after the libLLVM options of the
/// same names (-stats, -time-passes, -print-after-all, ...) are unregistered.
struct ToolOptions {
  cl::list<std::string> InputFiles{cl::Positional, cl::desc("<input .s or .stir>..."),
                                   cl::cat(Category)};
  cl::opt<std::string> OutputFile{"o",
                                  cl::desc("Output file ('-' for stdout), or an existing "
                                           "directory for the outputs of a batch"),
                                  cl::value_desc("file|dir"), cl::init("-"), cl::cat(Category)};
  cl::opt<std::string> OutputDir{"output-dir",
                                 cl::desc("Write each input's output into this directory, "
                                          "under the input's file name"),
                                 cl::value_desc("dir"), cl::cat(Category)};
  cl::opt<std::string> OutputSuffix{"output-suffix",
                                    cl::desc("Name each input's output after it, its "
                                             "extension replaced by this suffix"),
                                    cl::value_desc("suffix"), cl::cat(Category)};
  cl::opt<unsigned> Jobs{"jobs",
                         cl::desc("Inputs processed at once, each on a thread of its own "
                                  "(0: one per hardware thread)"),
                         cl::value_desc("N"), cl::init(1), cl::cat(Category)};
  cl::opt<std::string> Arch{"arch",
                            cl::desc("Target processor when the input has no "
                                     ".amdgcn_target (default gfx942)"),
                            cl::value_desc("gfx"), cl::cat(Category)};
  cl::opt<bool> EmitAsm{"emit-asm", cl::desc("Write assembly"), cl::cat(Category)};
  cl::opt<bool> PrintOutput{"print-output", cl::desc("Write the textual IR (.stir)"),
                            cl::cat(Category)};
  cl::opt<bool> EmitObj{"emit-obj",
                        cl::desc("Assemble the output with LLVM MC into an ELF object"),
                        cl::cat(Category)};
  cl::opt<bool> Link{"link",
                     cl::desc("With --emit-obj: link with ld.lld -shared into a code object "
                              "and patch in SQTTInstrumentPass's funcmap"),
                     cl::cat(Category)};
  cl::opt<std::string> LdLld{"ld-lld",
                             cl::desc("The ld.lld --link runs (default: LLVM 22's, else "
                                      "ld.lld-22 or ld.lld on PATH)"),
                             cl::value_desc("path"), cl::cat(Category)};
  cl::opt<bool> AllowUnknown{
      "allow-unknown-instructions",
      cl::desc("Keep statements LLVM MC rejects as opaque instructions that read "
               "and write every register (with a warning)"),
      cl::cat(Category)};
  cl::opt<unsigned> HeapReserve{
      "heap-reserve",
      cl::desc("Heap made ready per input byte before reading, faulted in 2 MiB "
               "huge pages instead of 4 KiB pages (0: no huge pages; see "
               "docs/performance.md)"),
      cl::value_desc("n"), cl::init(200), cl::cat(Category)};
  // Input bounds checked before LLVM MC reads the text (docs/reliability.md).
  cl::opt<unsigned> MaxIncludeDepth{
      "max-include-depth", cl::desc("Deepest .include nesting accepted"),
      cl::init(InputLimits().MaxIncludeDepth), cl::cat(Category)};
  cl::opt<uint64_t> MaxExpandedStatements{
      "max-expanded-statements",
      cl::desc("Most statements .rept/.irp/.irpc blocks and macro invocations may "
               "expand to, over the file"),
      cl::init(InputLimits().MaxExpandedStatements), cl::cat(Category)};
  cl::opt<unsigned> MaxExpressionDepth{
      "max-expression-depth",
      cl::desc("Deepest parenthesis nesting, and longest run of unary operators"),
      cl::init(InputLimits().MaxExpressionDepth), cl::cat(Category)};
  cl::opt<unsigned> MaxLiteralLength{
      "max-literal-length", cl::desc("Longest numeric literal, in characters"),
      cl::init(InputLimits().MaxLiteralLength), cl::cat(Category)};
  cl::opt<uint64_t> MaxFileNumber{
      "max-file-number", cl::desc("Largest .file / .cv_file number"),
      cl::init(InputLimits().MaxFileNumber), cl::cat(Category)};
  cl::list<std::string> Passes{
      "passes",
      cl::desc("Comma-separated passes to run, arguments in parentheses: "
               "'A,B(k=v,flag)'; may be repeated and mixed with --<PassName>"),
      cl::value_desc("pipeline"), cl::cat(Category)};
  cl::opt<bool> ListPasses{"list-passes",
                           cl::desc("Print the registered passes and exit"),
                           cl::cat(Category)};
  cl::opt<bool> VerifyEach{"verify-each",
                           cl::desc("Verify the input and the IR after every pass"),
                           cl::cat(Category)};
  cl::opt<bool> TimePasses{"time-passes",
                           cl::desc("Report the time each pass took (stderr)"),
                           cl::cat(Category)};
  cl::opt<bool> PrintAfterAll{"print-after-all",
                              cl::desc("Print the IR (.stir) after every pass (stderr)"),
                              cl::cat(Category)};
  cl::opt<std::string> FromLabel{
      "from-label", cl::desc("Apply the passes from the block with this label on"),
      cl::value_desc("label"), cl::cat(Category)};
  cl::opt<std::string> ToLabel{
      "to-label",
      cl::desc("Apply the passes up to the end of the block with this label"),
      cl::value_desc("label"), cl::cat(Category)};
  cl::opt<CfgFormat> PrintCfg{
      "print-cfg", cl::desc("Write each function's CFG instead of the IR"),
      cl::init(CfgFormat::None),
      cl::values(clEnumValN(CfgFormat::Dot, "dot", "Graphviz digraph")),
      cl::cat(Category)};
  cl::opt<bool> PrintPressure{
      "print-pressure",
      cl::desc("Write the live registers at each instruction, per loop, and each kernel's "
               "occupancy instead of the IR (docs/pressure.md)"),
      cl::cat(Category)};
  cl::opt<PressureFormat> PressureFormatOpt{
      "pressure-format", cl::desc("Format of --print-pressure"), cl::init(PressureFormat::Text),
      cl::values(clEnumValN(PressureFormat::Text, "text", "listing, loops, occupancy table"),
                 clEnumValN(PressureFormat::JSON, "json", "one object per kernel"),
                 clEnumValN(PressureFormat::SVG, "svg", "a plot per kernel")),
      cl::cat(Category)};
  cl::opt<unsigned> WorkgroupSize{
      "workgroup-size",
      cl::desc("Work-items per workgroup of every kernel for --print-pressure's occupancy, "
               "instead of its metadata's"),
      cl::value_desc("N"), cl::cat(Category)};
  cl::opt<bool> Stats{"stats",
                      cl::desc("Print per-function CFG counts and SQTTInstrumentPass's per-kernel "
                               "report (stderr, or --stats-file)"),
                      cl::cat(Category)};
  cl::opt<std::string> StatsFile{"stats-file",
                                 cl::desc("Write the --stats table to this file (implies --stats)"),
                                 cl::value_desc("file"), cl::cat(Category)};
  // SQTTInstrumentPass outputs (its funcmap-out, funcmap-in-asm, verify
  // arguments) as tool options.
  cl::opt<std::string> FuncmapOut{
      "funcmap-out", cl::desc("SQTTInstrumentPass: write the funcmap text to this file"),
      cl::value_desc("file"), cl::cat(Category)};
  cl::opt<bool> FuncmapInAsm{
      "funcmap-in-asm",
      cl::desc("SQTTInstrumentPass: append the funcmap to the assembly (.sqtt_funcmap)"),
      cl::cat(Category)};
  cl::opt<char> OptLevel{"O", cl::Prefix, cl::value_desc("0-3"),
                         cl::desc("Run the standard pipeline (docs/passes.md) instead of "
                                  "named passes: -O0, -O1, -O2, -O3"),
                         cl::cat(Category)};
  cl::opt<std::string> VgprMsbMode{
      "vgpr-msb-mode", cl::value_desc("none|msb8|msb16"),
      cl::desc("InsertVgprMsbPass/RaiseVgprMsbPass: how s_set_vgpr_msb encodes VGPRs "
               "256 and up (default: the target's)"),
      cl::cat(Category)};
  cl::opt<unsigned> NumWaves{
      "NumWaves", cl::value_desc("N"),
      cl::desc("Waves per workgroup, for the reference's passes that need it (>= 1)"),
      cl::cat(ReferenceCategory)};
  cl::opt<unsigned> MergeBarrierThreshold{
      "merge-barrier-threshold", cl::value_desc("N"),
      cl::desc("StinkyMergeBarrierPass's threshold=N (cycles; 0: its default, 11); the pass's "
               "own argument wins"),
      cl::cat(ReferenceCategory)};
  cl::opt<bool> PreserveSymbolicRegs{
      "preserve-symbolic-regs",
      cl::desc("Accepted for the reference's command lines: symbolic register "
               "spellings are always kept"),
      cl::cat(ReferenceCategory)};
  cl::opt<bool> PreserveComments{
      "preserve-comments",
      cl::desc("Accepted for the reference's command lines: comments are kept unless "
               "--strip-comments"),
      cl::cat(ReferenceCategory)};
  cl::opt<bool> StripComments{
      "strip-comments",
      cl::desc("Write assembly without its line comments, as the reference's tool does "
               "without --preserve-comments"),
      cl::cat(Category)};
  cl::opt<bool> Remarks{
      "remarks",
      cl::desc("Print the passes' remarks and reports on stderr (the reference's option; "
               "--stats adds the tool's tables)"),
      cl::cat(Category)};
  cl::opt<bool> VerifyWaitcnt{
      "verify-waitcnt",
      cl::desc("Check the final module's memory-counter waits (WaitCntVerifier): a "
               "missing wait is an error"),
      cl::cat(Category)};
  cl::opt<bool> WarnRedundantWaitcnt{
      "warn-redundant-waitcnt",
      cl::desc("With --verify-waitcnt: warn about waits that wait for nothing"),
      cl::cat(Category)};
  cl::opt<bool> VerifyHazards{
      "verify-hazards",
      cl::desc("Check the final module's pipeline hazards (HazardVerifier): missing "
               "wait states and ALU waits are errors, missing or too strong "
               "s_delay_alu warnings"),
      cl::cat(Category)};
  cl::opt<bool> VerifySchedule{
      "verify-schedule",
      cl::desc("Check that the pipeline's reorderings compute what the input did "
               "(the schedule validator, docs/scheduler.md): every kept instruction "
               "reads the same register versions and memory order"),
      cl::cat(Category)};
  cl::opt<bool> VerifyWaitCache{"verify-wait-cache",
                                 cl::desc("Debug: fail where a wait analysis with its cache "
                                          "(WaitCountCache) finds other waits than without"),
                                 cl::cat(Category)};
  cl::opt<bool> FindingsSummary{
      "findings-summary",
      cl::desc("With the verifiers: findings grouped by rule and producer pattern with "
               "counts and each rule's origin, and a verdict per function (clean, "
               "findings, unknown)"),
      cl::cat(Category)};
  cl::opt<std::string> ReplayFindings{
      "replay-findings", cl::ValueOptional, cl::value_desc("N"),
      cl::desc("With --verify-waitcnt: replay wait finding N (from 1, in the order they "
               "are reported; without N every one) along a path from the entry, with the "
               "counters in flight at each step (docs/waitcnt.md)"),
      cl::cat(Category)};
  cl::list<std::string> OnlyRules{
      "only", cl::CommaSeparated, cl::value_desc("rule,..."),
      cl::desc("Verifiers report only these rules (hazard rules as the summary names "
               "them, wait rules as read-vmcnt, barrier-lgkmcnt, ...)"),
      cl::cat(Category)};
  cl::list<std::string> IgnoredRules{
      "ignore-hazard", cl::CommaSeparated, cl::value_desc("rule,..."),
      cl::desc("Verifiers do not report these rules (a class validated on hardware)"),
      cl::cat(Category)};
  cl::list<std::string> DebugPasses{
      "debug-pass", cl::value_desc("pass"),
      cl::desc("Print the named pass's decisions on stderr (the reference's option; the "
               "pass's `debug` argument)"),
      cl::cat(Category)};
  cl::opt<bool> NoVerify{
      "no-verify",
      cl::desc("Do not prove a pipeline that changes code: no hazard repair added to "
               "named passes, no wait-count and hazard verification at the end, no "
               "insertion verifier in SQTTInstrumentPass (its verify=0)"),
      cl::cat(Category)};
  cl::opt<bool> VerifyInstrumentation{
      "verify-instrumentation",
      cl::desc("SQTTInstrumentPass: check that the inserted code changes no live "
               "register and that removing it gives back the input"),
      cl::cat(Category)};
  BinaryInputOptions Binary{Category};
  ReferenceOnlyOptions ReferenceOnly{ReferenceCategory};
};

const char *const ToolOptionNames[] = {
    "o",           "output-dir",  "output-suffix",   "jobs",
    "arch",        "emit-asm",    "print-output",
    "allow-unknown-instructions", "passes",          "list-passes",
    "verify-each", "time-passes", "print-after-all", "from-label",
    "to-label",    "print-cfg",   "stats",           "stats-file",
    "funcmap-out", "funcmap-in-asm", "verify-instrumentation",
    "emit-obj",    "link",        "ld-lld",          "heap-reserve",
    "max-include-depth", "max-expanded-statements", "max-expression-depth",
    "max-literal-length", "max-file-number", "O", "vgpr-msb-mode", "NumWaves",
    "merge-barrier-threshold",
    "preserve-symbolic-regs", "preserve-comments", "strip-comments", "remarks",
    "verify-waitcnt", "warn-redundant-waitcnt", "verify-hazards", "verify-schedule", "no-verify",
    "debug-pass"};

bool isToolOptionName(StringRef Name) {
  return is_contained(ToolOptionNames, Name) || is_contained(BinaryInputOptionNames, Name) ||
         isReferenceOnlyOptionName(Name);
}

/// The instrumentation options as SQTTInstrumentPass's leading arguments
/// (its own arguments still win). An error when they are given without the
/// pass.
Expected<PassArguments> instrumentationArguments(const ToolOptions &Opt,
                                                 ArrayRef<std::string> Pipeline) {
  bool Instruments = any_of(Pipeline, [](const std::string &Spec) {
    return StringRef(Spec).split('=').first == "SQTTInstrumentPass";
  });
  if (!Instruments && (!Opt.FuncmapOut.empty() || Opt.FuncmapInAsm || Opt.VerifyInstrumentation))
    return createStringError(inconvertibleErrorCode(),
                             "--funcmap-out, --funcmap-in-asm and --verify-instrumentation "
                             "need --SQTTInstrumentPass in the pipeline");
  PassArguments Args;
  if (!Opt.FuncmapOut.empty())
    Args.emplace_back("funcmap-out", Opt.FuncmapOut);
  if (Opt.FuncmapInAsm)
    Args.emplace_back("funcmap-in-asm", "");
  if (Opt.VerifyInstrumentation && Opt.NoVerify)
    return createStringError(inconvertibleErrorCode(),
                             "--verify-instrumentation and --no-verify contradict each other");
  if (Opt.VerifyInstrumentation)
    Args.emplace_back("verify", "");
  // --no-verify turns every proof off, the insertion verifier's included.
  if (Opt.NoVerify)
    Args.emplace_back("verify", "0");
  if (Opt.Stats || !Opt.StatsFile.empty())
    Args.emplace_back("stats", "");
  return Args;
}

/// The SQTT_* variables set in the environment: the library reads none.
StringMap<std::string> sqttEnvironment() {
  StringMap<std::string> Env;
  for (StringRef Name : sqtt::SQTTConfig::environmentVariables())
    if (std::optional<std::string> V = sys::Process::GetEnv(Name))
      Env[Name] = *V;
  return Env;
}

/// Unregisters a libLLVM option that has the name we are about to use.
void unregisterClashingOption(StringRef Name) {
  auto &Registered = cl::getRegisteredOptions();
  auto It = Registered.find(Name);
  if (It != Registered.end())
    It->second->removeArgument();
}

int fail(const Twine &Message, raw_ostream &Err = errs()) {
  WithColor::error(Err, ToolName) << Message << "\n";
  return 1;
}

/// The module could not be written out (a pseudo-instruction left unlowered,
/// ...): a diagnostic of the input, printed as it is, unlike an error of the
/// output file, which the tool names itself.
class ModuleWriteError : public ErrorInfo<ModuleWriteError> {
public:
  static char ID;
  explicit ModuleWriteError(Error E) : Message(toString(std::move(E))) {}
  void log(raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override { return inconvertibleErrorCode(); }

private:
  std::string Message;
};
char ModuleWriteError::ID;

/// After a failed parse: an unknown `--Name` is most likely a pass name typo.
void noteUnknownPasses(int argc, char **argv) {
  auto &Registered = cl::getRegisteredOptions();
  for (int I = 1; I < argc; ++I) {
    StringRef Arg = argv[I];
    if (Arg == "--")
      break;
    if (!Arg.starts_with("-") || Arg == "-")
      continue;
    StringRef Name = Arg.ltrim('-').split('=').first;
    if (!Registered.count(Name))
      WithColor::note(errs(), ToolName)
          << "'" << Arg << "' is neither an option nor a registered pass "
          << "(--list-passes lists the passes)\n";
  }
}

/// --emit-obj: the module assembled by LLVM MC, or with --link (\p Lld set)
/// the code object ld.lld makes of it with the funcmap patched in. Prints
/// the error on \p Err and returns nothing on failure.
std::optional<std::string> renderObject(const Module &M, const PassManager &PM, StringRef Lld,
                                        StinkyTofuContext &Ctx, raw_ostream &Err) {
  Expected<std::string> Object =
      emitObject(M, [&Ctx](const SourceDiagnostic &D) { Ctx.diagnose(D); });
  if (!Object) {
    Err << toString(Object.takeError()) << "\n";
    return std::nullopt;
  }
  if (Lld.empty())
    return std::move(*Object);
  StringRef Stem = sys::path::stem(M.fileName());
  std::string ObjectName = (Stem.empty() || Stem == "-" ? "module" : Stem.str()) + ".o";
  Expected<std::string> CodeObject = linkCodeObject(*Object, Lld, ObjectName);
  // The funcmap a pass left to patch in (none when it went into the
  // assembly: ld.lld carries that section over).
  const StringMap<std::string> &Sections = PM.artifacts().objectSections();
  if (auto It = Sections.find(funcmap::FuncMapSectionName); CodeObject && It != Sections.end())
    CodeObject = elf::patchFuncMapSection(*CodeObject, It->second);
  if (!CodeObject) {
    fail(toString(CodeObject.takeError()), Err);
    return std::nullopt;
  }
  return std::move(*CodeObject);
}

/// The output file of each input: -o's for one input; in a batch (several
/// inputs, an output directory or a suffix) each input's file name, its
/// extension replaced by --output-suffix when given, in the output directory
/// or else beside the input. No two inputs may share an output, and no
/// output may be its own input.
Expected<std::vector<std::string>> outputNames(const ToolOptions &Opt) {
  auto Bad = [](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(), Message);
  };
  bool OutputIsDir = Opt.OutputFile != "-" && sys::fs::is_directory(Opt.OutputFile);
  if (!Opt.OutputDir.empty()) {
    if (Opt.OutputFile.getNumOccurrences())
      return Bad("-o and --output-dir exclude each other");
    if (!sys::fs::is_directory(Opt.OutputDir))
      return Bad("--output-dir " + Opt.OutputDir + ": not a directory");
  }
  StringRef Dir = !Opt.OutputDir.empty() ? StringRef(Opt.OutputDir)
                  : OutputIsDir          ? StringRef(Opt.OutputFile)
                                         : StringRef();
  bool Batch = Opt.InputFiles.size() > 1 || !Dir.empty() || Opt.OutputSuffix.getNumOccurrences();
  if (!Batch)
    return std::vector<std::string>{Opt.OutputFile};
  if (Dir.empty() && Opt.OutputFile.getNumOccurrences())
    return Bad("-o " + Opt.OutputFile + " names one file: several inputs need -o DIR (an "
               "existing directory), --output-dir DIR or --output-suffix SUFFIX");
  if (Dir.empty() && !Opt.OutputSuffix.getNumOccurrences())
    return Bad("several inputs need -o DIR (an existing directory), --output-dir DIR or "
               "--output-suffix SUFFIX");
  if (Opt.InputFiles.size() > 1 && (!Opt.StatsFile.empty() || !Opt.FuncmapOut.empty()))
    return Bad("--stats-file and --funcmap-out name one file: not with several inputs");
  std::vector<std::string> Names;
  StringMap<StringRef> Claimed; // output -> the input writing it
  for (const std::string &Input : Opt.InputFiles) {
    if (Input == "-")
      return Bad("a batch reads files: '-' (stdin) cannot be one of its inputs");
    SmallString<256> Output(Dir.empty() ? sys::path::parent_path(Input) : Dir);
    if (Opt.OutputSuffix.getNumOccurrences())
      sys::path::append(Output, Twine(sys::path::stem(Input)) + Opt.OutputSuffix);
    else
      sys::path::append(Output, sys::path::filename(Input));
    if (sys::fs::equivalent(Input, Output))
      return Bad(Input + ": its output would overwrite it (give another directory or "
                 "--output-suffix)");
    auto [It, New] = Claimed.try_emplace(Output, Input);
    if (!New)
      return Bad(It->second + " and " + Input + " would both be written to " + Output);
    Names.push_back(Output.str().str());
  }
  return Names;
}

/// What the command line makes of every input alike.
struct RunPlan {
  std::vector<std::string> Pipeline;   // the passes to run
  std::vector<std::string> ProofSpecs; // the verifiers judged against the input
  StringMap<PassArguments> Leading;    // arguments the tool's options give passes
  std::string Lld;                     // --link's linker
};

/// runInput's result when the pipeline could not be set up: every other
/// input would fail the same way.
constexpr int SetupFailed = 2;

/// Reads \p InputFile, runs the pipeline of \p Plan on it in \p Ctx and
/// writes \p OutputFile (and the files the passes leave). Returns 0, 1 when
/// the input failed (reported, nothing written), or SetupFailed. Every
/// diagnostic and report goes to \p Err.
int runInput(const ToolOptions &Opt, const RunPlan &Plan, StinkyTofuContext &Ctx,
             PassRegistry &Registry, StringRef InputFile, StringRef OutputFile,
             bool LastInput, raw_ostream &Err) {
  Ctx.setDiagnosticHandler([&Err](const SourceDiagnostic &D) { Err << D.render(); });
  Ctx.setDumpStream(Err);
  PassManagerOptions PMOpts;
  PMOpts.VerifyEach = Opt.VerifyEach;
  PMOpts.TimePasses = Opt.TimePasses;
  PMOpts.PrintAfterAll = Opt.PrintAfterAll;
  PMOpts.TimingStream = &Err;
  // A pipeline that inserts no memory waits keeps the input's wait
  // findings, so its output has findings whenever the input has (every
  // Tensile kernel): the input's are then known before the pipeline
  // changes it, and it is not read again (proveAgainstInput).
  auto SpecName = [](const std::string &S) { return StringRef(S).split('=').first; };
  std::vector<std::string> SurvivingFindings;
  if (!is_contained(map_range(Plan.Pipeline, SpecName), "StinkyWaitCntInsertionPass"))
    copy_if(Plan.ProofSpecs, std::back_inserter(SurvivingFindings),
            [&](const std::string &S) { return SpecName(S) == "WaitCntVerifier"; });
  // That check needs the CFG the pipeline sees; when the pipeline starts by
  // recovering it on the whole module, the recovery runs once, first, and
  // the check reuses it. Not under --time-passes (one report for the whole
  // pipeline) nor --verify-schedule (its snapshot is taken before the
  // pipeline).
  ArrayRef<const char *> RecoveryNames = controlFlowRecoveryPasses();
  bool RecoverFirst = !SurvivingFindings.empty() && !Opt.TimePasses && !Opt.VerifySchedule &&
                      PassScope(Opt.FromLabel, Opt.ToLabel).isWholeModule() &&
                      Plan.Pipeline.size() > RecoveryNames.size() &&
                      std::equal(RecoveryNames.begin(), RecoveryNames.end(),
                                 Plan.Pipeline.begin());
  ArrayRef<std::string> RecoverySpecs =
      ArrayRef(Plan.Pipeline).take_front(RecoverFirst ? RecoveryNames.size() : 0);
  PassManager Recovery(Ctx, PMOpts);
  PassManager PM(Ctx, PMOpts);
  // The passes' --stats reports come before the tool's own table.
  std::string PassStats;
  raw_string_ostream PassStatsOS(PassStats);
  Ctx.setStatsStream(PassStatsOS);
  for (PassManager *Manager : {&Recovery, &PM}) {
    Manager->setVerifier(verifyModule);
    Manager->setPrinter(writeStir);
  }
  if (Error E = joinErrors(
          addPasses(Recovery, RecoverySpecs, Registry, Plan.Leading),
          addPasses(PM, ArrayRef(Plan.Pipeline).drop_front(RecoverySpecs.size()), Registry,
                    Plan.Leading))) {
    fail(toString(std::move(E)), Err);
    return SetupFailed;
  }

  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(InputFile);
  if (!Buffer)
    return fail(InputFile + ": " + Buffer.getError().message(), Err);
  // Before a binary is disassembled: the disassembler's own allocations
  // are most of the heap a binary input touches.
  reserveToolHeap((*Buffer)->getBufferSize(), Opt.HeapReserve);
  KnownStatements Known; // of a binary's disassembly
  if (!Opt.Binary.disassembleIfBinary(*Buffer, InputFile, Err, Known))
    return 1;
  // The input as read, for proveAgainstInput (stdin cannot be read twice).
  std::unique_ptr<MemoryBuffer> InputCopy;
  if (!Plan.ProofSpecs.empty())
    InputCopy = MemoryBuffer::getMemBufferCopy((*Buffer)->getBuffer(),
                                               (*Buffer)->getBufferIdentifier());
  ReaderOptions ReadOpts;
  ReadOpts.Arch = Opt.Arch;
  ReadOpts.AllowUnknownInstructions = Opt.AllowUnknown;
  ReadOpts.Limits.MaxIncludeDepth = Opt.MaxIncludeDepth;
  ReadOpts.Limits.MaxExpandedStatements = Opt.MaxExpandedStatements;
  ReadOpts.Limits.MaxExpressionDepth = Opt.MaxExpressionDepth;
  ReadOpts.Limits.MaxLiteralLength = Opt.MaxLiteralLength;
  ReadOpts.Limits.MaxFileNumber = Opt.MaxFileNumber;
  ReadOpts.Context = &Ctx;
  ReadOpts.Known = Known.TargetId.empty() ? nullptr : &Known;
  bool IsStir = StringRef(InputFile).ends_with(".stir");
  Expected<std::unique_ptr<Module>> MOrErr =
      IsStir ? readStir(std::move(*Buffer), ReadOpts) : readAsm(std::move(*Buffer), ReadOpts);
  if (!MOrErr) {
    Err << StringRef(toString(MOrErr.takeError())).rtrim("\n") << "\n";
    return 1;
  }
  Module &M = **MOrErr;

  Expected<PassScope> Scope = resolveLabelScope(M, Opt.FromLabel, Opt.ToLabel);
  if (!Scope)
    return fail(toString(Scope.takeError()), Err);

  if (Opt.VerifyEach)
    if (Error E = verifyModule(M))
      return fail("the input does not verify:\n" + toString(std::move(E)), Err);
  std::optional<InputFindings> InputKeys;
  AnalysisManager AM;
  if (RecoverFirst)
    if (Error E = Recovery.run(M, AM)) {
      Err << toString(std::move(E)) << "\n";
      return 1;
    }
  // An error here is left to the pipeline, which reports it where it would
  // have.
  if (!SurvivingFindings.empty() && canVerifyInputInPlace(M)) {
    if (Expected<InputFindings> Keys =
            verifyInput(M, SurvivingFindings, Registry, Plan.Leading, RecoverFirst, &AM))
      InputKeys = std::move(*Keys);
    else
      consumeError(Keys.takeError());
  }
  std::optional<ScheduleSnapshot> InputSchedule;
  if (Opt.VerifySchedule) {
    // A pipeline that raises s_set_vgpr_msb (the -O levels) schedules
    // logical VGPRs and inserts the msb writes again: the snapshot is of
    // the raised code (its own raise is then a no-op), where `v44` under
    // msb 1 is v300 and no msb write stands between the instructions.
    if (is_contained(map_range(Plan.Pipeline, SpecName), "RaiseVgprMsbPass")) {
      Expected<std::unique_ptr<Pass>> Raise = createRaiseVgprMsbPass({});
      if (!Raise)
        return fail(toString(Raise.takeError()));
      (*Raise)->setContext(Ctx);
      if (Expected<PreservedAnalyses> Raised = (*Raise)->run(M, AM, *Scope); !Raised)
        return fail(toString(Raised.takeError()));
      AM.invalidateAll(PreservedAnalyses::none());
    }
    InputSchedule.emplace(M);
  }
  if (Error E = PM.run(M, AM, *Scope)) {
    Err << toString(std::move(E)) << "\n";
    return 1;
  }
  if (InputSchedule)
    if (Error E = InputSchedule->verify(M))
      return fail(toString(std::move(E)));
  if (!Plan.ProofSpecs.empty()) {
    auto ReadInput = [&]() -> Expected<std::unique_ptr<Module>> {
      std::unique_ptr<MemoryBuffer> Text = std::move(InputCopy);
      return IsStir ? readStir(std::move(Text), ReadOpts) : readAsm(std::move(Text), ReadOpts);
    };
    Expected<ProofResult> Proof =
        proveAgainstInput(M, AM, Plan.ProofSpecs, Registry, Plan.Leading, Ctx, ReadInput,
                          InputKeys ? &*InputKeys : nullptr);
    if (!Proof) {
      Err << toString(Proof.takeError()) << "\n";
      return 1;
    }
    for (const SourceDiagnostic &D : Proof->NewFindings)
      Err << D.render();
    if (Proof->InputFindings)
      WithColor::note(Err, ToolName)
          << Proof->InputFindings << " wait and hazard findings of the output were "
          << "in the input already: not errors (--verify-waitcnt --verify-hazards "
             "on the input lists them)\n";
    if (Proof->InputWaitFindings.value_or(0))
      WithColor::note(Err, ToolName)
          << "the output's wait findings are among the input's "
          << *Proof->InputWaitFindings
          << " on every path, feasible or not (the code inserted needs no wait): not "
             "errors (--verify-waitcnt on the input lists them)\n";
    if (!Proof->NewFindings.empty()) {
      WithColor::note(Err, ToolName)
          << "the pipeline's output fails verification (lines are the input's; "
             "nothing was written; --no-verify writes it unchecked)\n";
      return 1;
    }
  }

  // --stats and --print-cfg need edges: build the CFG when no pass did. The
  // normal output is rendered first so that this never changes it.
  bool PipelineBuildsCFG = is_contained(
      map_range(Plan.Pipeline, [](const std::string &S) { return StringRef(S).split('=').first; }),
      "CFGBuilder");
  auto EnsureCFG = [&] {
    if (!PipelineBuildsCFG)
      for (Function &F : M.functions())
        buildCFG(F);
    PipelineBuildsCFG = true;
  };

  // Every output is rendered into a temporary file beside its destination
  // and all are renamed into place only when the whole run has succeeded.
  PendingOutputs Outputs;
  auto Report = [&Err](Error E) {
    handleAllErrors(
        std::move(E), [&Err](const ModuleWriteError &W) { Err << W.message() << "\n"; },
        [&Err](const ErrorInfoBase &W) { fail(W.message(), Err); });
    return 1;
  };
  if (Opt.EmitObj) {
    std::optional<std::string> Object = renderObject(M, PM, Plan.Lld, Ctx, Err);
    if (!Object)
      return 1;
    if (Error E = Outputs.add(OutputFile, [&](raw_ostream &OS) {
          OS << *Object;
          return Error::success();
        }))
      return Report(std::move(E));
  } else if (Error E = Outputs.add(OutputFile, [&](raw_ostream &OS) -> Error {
               if (Opt.PrintCfg == CfgFormat::Dot) {
                 EnsureCFG();
                 writeCfgDot(M, OS);
                 return Error::success();
               }
               if (Opt.PrintPressure) {
                 EnsureCFG();
                 // Proven long-branch targets and callees: edges and callee
                 // reads instead of everything live (as -O pipelines begin).
                 lowerLongBranches(M);
                 recoverCallTargets(M);
                 AnalysisManager ReportAM;
                 // A register outside the descriptor is reported at its
                 // instruction, as a write error is.
                 PressureReportOptions Pressure{Opt.PressureFormatOpt, std::nullopt};
                 if (Opt.WorkgroupSize.getNumOccurrences())
                   Pressure.WorkgroupSize = Opt.WorkgroupSize;
                 if (Error E = printModulePressure(
                         M, ReportAM, OS, Pressure,
                         [&Ctx](const SourceDiagnostic &D) { Ctx.diagnose(D); }))
                   return make_error<ModuleWriteError>(std::move(E));
                 return Error::success();
               }
               if (Opt.PrintOutput || (IsStir && !Opt.EmitAsm)) {
                 writeStir(M, OS);
                 return Error::success();
               }
               if (Opt.StripComments && !Opt.PreserveComments) {
                 std::string Text;
                 raw_string_ostream TextOS(Text);
                 if (Error E = writeAsm(M, TextOS))
                   return make_error<ModuleWriteError>(std::move(E));
                 OS << stripAsmComments(Text);
                 return Error::success();
               }
               if (Error E = writeAsm(M, OS))
                 return make_error<ModuleWriteError>(std::move(E));
               return Error::success();
             })) {
    return Report(std::move(E));
  }
  for (const auto &[Path, Text] : PM.artifacts().files())
    if (Error E = Outputs.add(Path, [&](raw_ostream &OS) {
          OS << Text;
          return Error::success();
        }))
      return Report(std::move(E));

  if (Opt.Remarks && !Opt.Stats && Opt.StatsFile.empty())
    Err << PassStats;
  if (Opt.Stats || !Opt.StatsFile.empty()) {
    EnsureCFG();
    std::string StatsText = std::move(PassStats);
    raw_string_ostream StatsOS(StatsText);
    printModuleStats(computeModuleStats(M), StatsOS);
    printCycleStats(M, StatsOS);
    if (Opt.StatsFile.empty())
      Err << StatsText;
    else if (Error E = Outputs.add(Opt.StatsFile, [&](raw_ostream &OS) {
               OS << StatsText;
               return Error::success();
             }))
      return Report(std::move(E));
  }
  if (Error E = Outputs.commit())
    return Report(std::move(E));
  // Like clang's -disable-free: after the last input the process ends, and
  // the OS takes the module's memory back faster than its destructors would.
  // Sanitizer builds free it: LeakSanitizer would report it, and the
  // destructors get checked.
#ifndef STINKYTOFU_SANITIZE
  if (LastInput)
    (void)MOrErr->release();
#endif
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  StinkyTofuContext Ctx;
  PassRegistry &Registry = passRegistry(Ctx);
  const StringMap<std::string> SqttEnvironment = sqttEnvironment();
  registerInstrumentPasses(Registry, SqttEnvironment);

  for (const char *Name : ToolOptionNames)
    unregisterClashingOption(Name);
  for (const char *Name : BinaryInputOptionNames)
    unregisterClashingOption(Name);
  for (const ReferenceOnlyOption &O : referenceOnlyOptions())
    unregisterClashingOption(O.Name);
  ToolOptions Opt;

  // One `--<PassName>[=args]` option per registered pass. Every occurrence is
  // kept with its position so the passes run in command-line order.
  std::vector<std::pair<const PassInfo *, std::unique_ptr<cl::list<std::string>>>> PassFlags;
  std::vector<std::unique_ptr<std::string>> FlagDescriptions; // cl::desc keeps a StringRef
  auto AddFlag = [&](const PassInfo &Info, StringRef Name, std::string Description) {
    if (isToolOptionName(Name)) {
      WithColor::warning(errs(), ToolName)
          << "pass '" << Name << "' has the name of an option; run it with --passes="
          << Name << "\n";
      return;
    }
    unregisterClashingOption(Name);
    FlagDescriptions.push_back(std::make_unique<std::string>(std::move(Description)));
    PassFlags.emplace_back(&Info, std::make_unique<cl::list<std::string>>(
                                      Name, cl::desc(*FlagDescriptions.back()),
                                      cl::ValueOptional, cl::value_desc("args"),
                                      cl::cat(PassCategory)));
  };
  for (const PassInfo &Info : Registry.passes())
    AddFlag(Info, Info.Name, Info.Description);
  for (const auto &[Alias, Target] : Registry.aliases())
    if (const PassInfo *Info = Registry.find(Alias))
      AddFlag(*Info, Alias, "the reference's name of --" + Info->Name);

  cl::HideUnrelatedOptions({&Category, &ReferenceCategory, &PassCategory});
  if (!cl::ParseCommandLineOptions(
          argc, argv, "stinkytofu-opt: read, transform and write AMDGPU assembly\n",
          &errs())) {
    noteUnknownPasses(argc, argv);
    return 1;
  }

  configureToolHeap(Opt.HeapReserve != 0);
  if (Opt.ListPasses) {
    printPassList(Registry, outs());
    return 0;
  }
  if (Opt.InputFiles.empty())
    return fail("no input file (see --help)");
  if (Opt.Binary.ListKernels)
    return Opt.Binary.listKernels(Opt.InputFiles);
  if (Opt.EmitAsm && Opt.PrintOutput)
    return fail("--emit-asm and --print-output exclude each other");
  if (Opt.PrintCfg != CfgFormat::None && (Opt.EmitAsm || Opt.PrintOutput))
    return fail("--print-cfg replaces the output: it excludes --emit-asm and --print-output");
  if (Opt.EmitObj && (Opt.EmitAsm || Opt.PrintOutput || Opt.PrintCfg != CfgFormat::None))
    return fail("--emit-obj excludes --emit-asm, --print-output and --print-cfg");
  if (Opt.PrintPressure && (Opt.EmitAsm || Opt.PrintOutput || Opt.EmitObj ||
                            Opt.PrintCfg != CfgFormat::None))
    return fail("--print-pressure replaces the output: it excludes --emit-asm, --print-output, "
                "--emit-obj and --print-cfg");
  if (Opt.PressureFormatOpt.getNumOccurrences() && !Opt.PrintPressure)
    return fail("--pressure-format needs --print-pressure");
  if (Opt.WorkgroupSize.getNumOccurrences() && !Opt.PrintPressure)
    return fail("--workgroup-size needs --print-pressure");
  if (Opt.WorkgroupSize.getNumOccurrences() &&
      (Opt.WorkgroupSize == 0 || Opt.WorkgroupSize > MaxWorkgroupSize))
    return fail("--workgroup-size must be 1 to " + Twine(MaxWorkgroupSize));
  if (Opt.Link && !Opt.EmitObj)
    return fail("--link needs --emit-obj");
  if (!Opt.LdLld.empty() && !Opt.Link)
    return fail("--ld-lld needs --link");
  RunPlan Plan;
  if (Opt.Link) {
    Expected<std::string> Found = findLld(Opt.LdLld);
    if (!Found)
      return fail(toString(Found.takeError()));
    Plan.Lld = *Found;
  }

  // The pipeline, in command-line order: every --<PassName> occurrence and
  // every --passes entry, sorted by position (a --passes list keeps its
  // internal order).
  std::vector<std::pair<unsigned, std::string>> Ordered;
  for (auto &[Info, Flag] : PassFlags)
    for (size_t I = 0; I < Flag->size(); ++I) {
      StringRef Args = (*Flag)[I];
      Ordered.emplace_back(Flag->getPosition(I),
                           Args.empty() ? Info->Name : Info->Name + "=" + Args.str());
    }
  for (size_t I = 0; I < Opt.Passes.size(); ++I) {
    Expected<std::vector<std::string>> Specs = parsePassPipeline(Opt.Passes[I]);
    if (!Specs)
      return fail(toString(Specs.takeError()));
    for (std::string &Spec : *Specs)
      Ordered.emplace_back(Opt.Passes.getPosition(I), std::move(Spec));
  }
  stableSort(Ordered, [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<std::string> Pipeline;
  for (auto &[Position, Spec] : Ordered)
    Pipeline.push_back(std::move(Spec));
  if (Opt.OptLevel.getNumOccurrences()) {
    if (!Pipeline.empty())
      return fail("-O" + Twine(Opt.OptLevel) + " runs the standard pipeline: it excludes named passes");
    Expected<std::vector<std::string>> Standard = standardPipeline(Opt.OptLevel - '0');
    if (!Standard)
      return fail(toString(Standard.takeError()));
    Pipeline = std::move(*Standard);
  }
  if (Opt.NumWaves.getNumOccurrences() && Opt.NumWaves == 0)
    return fail("--NumWaves must be at least 1");
  if (Opt.WarnRedundantWaitcnt && !Opt.VerifyWaitcnt)
    return fail("--warn-redundant-waitcnt needs --verify-waitcnt");
  if (Opt.VerifyWaitcnt)
    Pipeline.push_back(Opt.WarnRedundantWaitcnt ? "WaitCntVerifier=warnRedundant"
                                                : "WaitCntVerifier");
  if (Opt.VerifyHazards)
    Pipeline.push_back("HazardVerifier");
  // A pipeline that changes code ends with the hazard repair and the
  // verifiers (docs/passes.md, "How pipelines end").
  // The verifiers it adds run after the others, judged against the input
  // (proveAgainstInput).
  size_t FirstProof = Opt.NoVerify ? Pipeline.size() : endPipelineProven(Pipeline, Registry);
  std::vector<std::string> ProofSpecs(Pipeline.begin() + FirstProof, Pipeline.end());
  Pipeline.resize(FirstProof);
  StringMap<PassArguments> Leading;
  if (Opt.NumWaves.getNumOccurrences())
    for (StringRef Name : {"WaitCntVerifier", "StinkyWaitCntInsertionPass", "TDMLoadWaveSyncPass"})
      Leading[Name] = {{"NumWaves", std::to_string(Opt.NumWaves)}};
  // The reference's 0 is its default, 11, which is the pass's.
  if (Opt.MergeBarrierThreshold != 0)
    Leading["StinkyMergeBarrierPass"] = {{"threshold", std::to_string(Opt.MergeBarrierThreshold)}};
  if (Opt.VerifyWaitCache)
    for (StringRef Name : {"StinkyDAGSchedulerPass", "StinkyWaitCntInsertionPass"})
      Leading[Name].emplace_back("checkWaitCache", "");
  PassArguments FindingsArgs;
  if (Opt.FindingsSummary)
    FindingsArgs.emplace_back("summary", "");
  if (!Opt.OnlyRules.empty())
    FindingsArgs.emplace_back("only", llvm::join(Opt.OnlyRules, ":"));
  if (!Opt.IgnoredRules.empty())
    FindingsArgs.emplace_back("ignore", llvm::join(Opt.IgnoredRules, ":"));
  if (!FindingsArgs.empty())
    for (StringRef Name : {"WaitCntVerifier", "HazardVerifier"})
      append_range(Leading[Name], FindingsArgs);
  if (Opt.ReplayFindings.getNumOccurrences())
    Leading["WaitCntVerifier"].emplace_back("replay", Opt.ReplayFindings);
  if (!Opt.VgprMsbMode.empty()) {
    std::optional<stinkytofu::VgprMsbMode> Mode = parseVgprMsbMode(Opt.VgprMsbMode);
    if (!Mode)
      return fail("--vgpr-msb-mode must be none, msb8 or msb16, not '" + Opt.VgprMsbMode + "'");
    Leading["InsertVgprMsbPass"] = vgprMsbModeArguments(*Mode);
    Leading["RaiseVgprMsbPass"] = vgprMsbModeArguments(*Mode);
  }
  for (const std::string &Name : Opt.DebugPasses) {
    const PassInfo *Info = Registry.find(Name);
    if (!Info)
      return fail("--debug-pass: unknown pass '" + Name + "'");
    Leading[Info->Name].emplace_back("debug", "");
  }
  Expected<PassArguments> InstrumentArgs = instrumentationArguments(Opt, Pipeline);
  if (!InstrumentArgs)
    return fail(toString(InstrumentArgs.takeError()));
  Leading["SQTTInstrumentPass"] = *InstrumentArgs;
  Plan.Pipeline = std::move(Pipeline);
  Plan.ProofSpecs = std::move(ProofSpecs);
  Plan.Leading = std::move(Leading);
  // Once per run, not per input: the heuristics change no output.
  ReferenceOnlyOptions::warnHeuristics(Opt.ReferenceOnly.heuristicsGiven(), ToolName, errs());

  Expected<std::vector<std::string>> Outputs = outputNames(Opt);
  if (!Outputs)
    return fail(toString(Outputs.takeError()));
  // Each input in a context of its own (the first in the one the options
  // were made with), on --jobs threads: diagnostics come in input order and
  // a failed input leaves the others' outputs written.
  const size_t NumInputs = Opt.InputFiles.size();
  std::vector<uint64_t> Sizes(NumInputs, 0); // the work of each input, roughly
  for (size_t I = 0; I < NumInputs; ++I)
    (void)sys::fs::file_size(Opt.InputFiles[I], Sizes[I]);
  return runInputJobs(NumInputs, Opt.Jobs, Sizes, [&](size_t I, raw_ostream &Err) {
    std::unique_ptr<StinkyTofuContext> OwnCtx;
    StinkyTofuContext *InputCtx = &Ctx;
    PassRegistry *InputRegistry = &Registry;
    if (I) {
      OwnCtx = std::make_unique<StinkyTofuContext>();
      InputCtx = OwnCtx.get();
      InputRegistry = &passRegistry(*InputCtx);
      registerInstrumentPasses(*InputRegistry, SqttEnvironment);
    }
    int Status = runInput(Opt, Plan, *InputCtx, *InputRegistry, Opt.InputFiles[I], (*Outputs)[I],
                          I + 1 == NumInputs, Err);
    if (Status == SetupFailed)
      return InputStatus::Abort;
    if (Status == 0)
      return InputStatus::Written;
    // Not every error names its input (a label scope, a pass failure).
    if (NumInputs > 1)
      WithColor::note(Err, ToolName) << Opt.InputFiles[I] << ": nothing written\n";
    return InputStatus::Failed;
  });
}

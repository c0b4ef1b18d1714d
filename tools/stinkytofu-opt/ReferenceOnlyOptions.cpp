//===- ReferenceOnlyOptions.cpp - The reference's options without effect --===//
#include "ReferenceOnlyOptions.h"
#include "stinkytofu/support/StableSort.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace stinkytofu {
namespace {

using V = ReferenceValue;
constexpr ReferenceRole Fact = ReferenceRole::KernelFact;
constexpr ReferenceRole Heuristic = ReferenceRole::SchedulerHeuristic;

// The reference's tool reads the kernel facts into its GemmTileConfig
// (unsigned 32-bit, digits only) and the heuristics into its scheduler's
// dagFeatures (docs/user/scheduler-tuning-parameters.md of
// ROCm/rocm-libraries' shared/stinkytofu gives each flag and its value).
constexpr ReferenceOnlyOption Table[] = {
    {"TileA0", V::Count, Fact},
    {"TileB0", V::Count, Fact},
    {"TileM0", V::Count, Fact},
    {"NumGRA", V::Count, Fact},
    {"NumGRB", V::Count, Fact},
    {"NumGRM", V::Count, Fact},
    {"ds-read-order", V::DsOrder, Heuristic},
    {"ds-read-queue-depth", V::Integer, Heuristic},
    {"ds-read-drain-latency", V::Integer, Heuristic},
    {"ds-read-throttle-latency", V::Integer, Heuristic},
    {"ds-read-throttle-transition-factor", V::Real, Heuristic},
    {"ds-read-throttle-transition-entries", V::Integer, Heuristic},
    {"ds-read-per-cap", V::Integer, Heuristic},
    {"ds-read-per-wmma", V::Integer, Heuristic},
    {"ds-issue-cap-span-cycles", V::Integer, Heuristic},
    {"ds-slot-first", V::Switch, Heuristic},
    {"global-read-queue-depth", V::Integer, Heuristic},
    {"global-read-drain-latency", V::Integer, Heuristic},
    {"tensor-load-wmma-space", V::Integer, Heuristic},
    {"tensor-load-ds-load-gap-cycles", V::Integer, Heuristic},
    {"prefetch-lead-wmmas", V::Integer, Heuristic},
    {"prefetch-lead-min-stage-wmmas", V::Integer, Heuristic},
    {"wait-alu-hold-strict-count", V::Integer, Heuristic},
    {"war-gate-wmmas", V::Integer, Heuristic},
    {"wmma-batch-size", V::Integer, Heuristic},
    {"enable-wmma-hide-budget-prescan", V::Switch, Heuristic},
    {"enable-wmma-blocked-scale", V::Switch, Heuristic},
};

enum class DsReadOrder { ProgramOrder, Ascending, AscendingCache };

const char *description(ReferenceRole Role) {
  return Role == Fact ? "The reference's kernel fact, read by its scheduler: checked to be a "
                        "whole number, no effect (StinkyTofu's passes read the code)"
                      : "The reference's scheduler heuristic: accepted, no effect "
                        "(StinkyTofu's scheduler has none; a warning names it)";
}

template <typename T, typename... Mods>
std::unique_ptr<cl::Option> makeOption(const ReferenceOnlyOption &O, cl::OptionCategory &Category,
                                       const Mods &...M) {
  return std::make_unique<cl::opt<T>>(StringRef(O.Name), cl::desc(description(O.Role)),
                                      cl::cat(Category), M...);
}

std::unique_ptr<cl::Option> makeOption(const ReferenceOnlyOption &O,
                                       cl::OptionCategory &Category) {
  switch (O.Value) {
  case V::Count:
    return makeOption<unsigned>(O, Category, cl::value_desc("N"));
  case V::Integer:
    return makeOption<int>(O, Category, cl::value_desc("N"));
  case V::Real:
    return makeOption<double>(O, Category, cl::value_desc("F"));
  case V::Switch:
    return makeOption<bool>(O, Category);
  case V::DsOrder:
    return makeOption<DsReadOrder>(
        O, Category,
        cl::values(clEnumValN(DsReadOrder::ProgramOrder, "ProgramOrder", "AABB"),
                   clEnumValN(DsReadOrder::Ascending, "Ascending", "A0 B0 A1 B1"),
                   clEnumValN(DsReadOrder::AscendingCache, "AscendingCache", "A0 B0 B1 A1")));
  }
  llvm_unreachable("every value type is handled");
}

} // namespace

ArrayRef<ReferenceOnlyOption> referenceOnlyOptions() { return Table; }

bool isReferenceOnlyOptionName(StringRef Name) {
  return any_of(Table, [&](const ReferenceOnlyOption &O) { return Name == O.Name; });
}

ReferenceOnlyOptions::ReferenceOnlyOptions(cl::OptionCategory &Category) {
  for (const ReferenceOnlyOption &O : Table)
    Options.emplace_back(&O, makeOption(O, Category));
}

ReferenceOnlyOptions::~ReferenceOnlyOptions() = default;

std::vector<std::string> ReferenceOnlyOptions::heuristicsGiven() const {
  std::vector<std::pair<unsigned, std::string>> Given;
  for (const auto &[Info, Option] : Options)
    if (Info->Role == Heuristic && Option->getNumOccurrences())
      Given.emplace_back(Option->getPosition(), "--" + std::string(Info->Name));
  stableSort(Given, [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<std::string> Names;
  for (auto &[Position, Name] : Given)
    Names.push_back(std::move(Name));
  return Names;
}

void ReferenceOnlyOptions::warnHeuristics(ArrayRef<std::string> Given, StringRef ToolName,
                                          raw_ostream &OS) {
  if (Given.empty())
    return;
  bool One = Given.size() == 1;
  WithColor::warning(OS, ToolName)
      << join(Given, ", ") << (One ? " tunes one of" : " tune")
      << " the reference's scheduler heuristics, which StinkyTofu's scheduler does not have; "
      << (One ? "it changes" : "they change")
      << " nothing (docs/passes.md, \"The reference's command line\")\n";
}

} // namespace stinkytofu

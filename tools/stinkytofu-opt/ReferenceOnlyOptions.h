//===- ReferenceOnlyOptions.h - The reference's options without effect -*- C++ -*-===//
//
// Options of the reference implementation's stinkytofu-opt that StinkyTofu
// accepts so that its command lines run here, but that change nothing
// (docs/passes.md, "The reference's command line"):
//
// - the kernel facts its scheduler reads (--TileA0, --NumGRA, ...): checked
//   to be whole numbers; StinkyTofu's passes read the code;
// - the heuristics of its gfx1250 scheduler (--ds-read-queue-depth,
//   --prefetch-lead-wmmas, ...): typed as the reference types them, applied
//   nowhere, and named in one warning per run.
//
// Both are one table of names and value types, made into options here.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_OPT_REFERENCEONLYOPTIONS_H
#define STINKYTOFU_OPT_REFERENCEONLYOPTIONS_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu {

/// How the reference reads an option's value.
enum class ReferenceValue {
  Count,   ///< an unsigned whole number (its kernel facts)
  Integer, ///< a whole number, negative ones included (std::stoi)
  Real,    ///< a number with a fraction
  Switch,  ///< no value (or =true / =false)
  DsOrder, ///< ProgramOrder, Ascending or AscendingCache
};

/// Why the option has no effect here.
enum class ReferenceRole { KernelFact, SchedulerHeuristic };

struct ReferenceOnlyOption {
  const char *Name;
  ReferenceValue Value;
  ReferenceRole Role;
};

/// Every option of the table, in --help's order.
llvm::ArrayRef<ReferenceOnlyOption> referenceOnlyOptions();

/// True for a name of the table.
bool isReferenceOnlyOptionName(llvm::StringRef Name);

/// The table's options, registered in \p Category.
class ReferenceOnlyOptions {
public:
  explicit ReferenceOnlyOptions(llvm::cl::OptionCategory &Category);
  ~ReferenceOnlyOptions();

  /// The scheduler heuristics given on the command line, as `--name`, in
  /// command-line order.
  std::vector<std::string> heuristicsGiven() const;

  /// Prints the one warning naming \p Given on \p OS (nothing when empty).
  static void warnHeuristics(llvm::ArrayRef<std::string> Given, llvm::StringRef ToolName,
                             llvm::raw_ostream &OS);

private:
  std::vector<std::pair<const ReferenceOnlyOption *, std::unique_ptr<llvm::cl::Option>>>
      Options;
};

} // namespace stinkytofu

#endif

//===- ExpansionLines.h - Invoking lines of macro expansions -----*- C++ -*-===//
//
// The reader ties every instruction a macro or `.rept` expansion produces to
// the line of the outermost invocation. MC's parser knows that line, but
// tells it only through GenDwarfForAssembly, which costs a line-table lookup
// for every statement of the file. This tracker works it out from what the
// streamer sees anyway: each expansion is a source buffer of its own, made in
// order, so between two statements of the main buffer the k-th outermost
// invocation owns the k-th run of buffers. It answers only when the buffer
// counts check out and says so otherwise; the reader then asks the parser.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_PARSE_EXPANSIONLINES_H
#define STINKYTOFU_LIB_PARSE_EXPANSIONLINES_H

#include "stinkytofu/mc/AssemblerState.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCContext.h"
#include "llvm/Support/SourceMgr.h"
#include <vector>

namespace stinkytofu {

/// The statements of \p Text that make the parser open a source buffer: macro
/// invocations (\p IsMacro decides for a statement's first word) and `.rept`,
/// `.irp`, `.irpc` blocks. Bodies of `.macro` definitions, of repeat blocks
/// and of `.amdgpu_metadata` are skipped; comments and strings are honoured.
struct ExpansionScan {
  llvm::SmallVector<size_t, 4> Starts; ///< byte offsets, in order
  /// Conditionals or `.exitm`: some of the Starts may not run.
  bool MaySkip = false;
  /// `.macro` or `.purgem`: a word may name another macro further on.
  bool Redefines = false;
  /// `.include` or `.incbin`: buffers that are no expansion.
  bool Includes = false;
};
ExpansionScan scanExpansions(llvm::StringRef Text,
                             llvm::function_ref<bool(llvm::StringRef)> IsMacro);

class ExpansionLineTracker {
public:
  /// \p Ctx knows the macros defined so far.
  ExpansionLineTracker(llvm::SourceMgr &SM, unsigned MainBuffer, llvm::MCContext &Ctx);

  /// An event whose statement lies in the main buffer, written from \p Begin
  /// (or, when unknown, ending before \p Next); \p Next is where the parser
  /// stood after it.
  void mainEvent(std::vector<AsmEvent> &Events, size_t Begin, size_t Next);
  /// The event Events[Index] came out of an expansion, from the buffer that
  /// holds \p Where.
  void expansionEvent(size_t Index, const char *Where);
  /// The parser is done; attributes the expansions after the last statement.
  void finish(std::vector<AsmEvent> &Events);

  /// False when some expansion could not be attributed with certainty.
  bool resolved() const { return !Failed; }

private:
  void resolveGap(std::vector<AsmEvent> &Events, size_t End);
  unsigned bufferOf(const char *Where);
  /// How many buffers buffer \p Id opens, itself and nested ones included
  /// (0: cannot tell).
  unsigned buffersOpenedBy(unsigned Id);
  bool isMacro(llvm::StringRef Name) const;

  llvm::SourceMgr &SM;
  llvm::StringRef Main;
  llvm::MCContext &Ctx;
  size_t GapBegin = 0;    ///< main-buffer offset where the current gap starts
  unsigned GapBuffers;    ///< buffers that existed when the gap started
  std::vector<std::pair<size_t, unsigned>> GapEvents; ///< (event, buffer)
  std::vector<unsigned> Opened; ///< buffersOpenedBy cache, by buffer id
  unsigned CachedBuffer = 0;
  const char *CachedBegin = nullptr, *CachedEnd = nullptr;
  bool Failed = false;
};

} // namespace stinkytofu

#endif

//===- AsmReader.h - Reading `.s` files into the Asm IR ---------*- C++ -*-===//
#ifndef STINKYTOFU_ASM_ASMREADER_H
#define STINKYTOFU_ASM_ASMREADER_H

#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InputLimits.h"
#include "stinkytofu/mc/KnownStatements.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace stinkytofu {

class StinkyTofuContext;

/// Where a line of the assembled text really came from (for `.stir` input,
/// whose text is synthesized): used to point diagnostics at the user's file.
struct OriginalLine {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Text;
};

struct ReaderOptions {
  /// Target from the command line; empty when not given. A file's
  /// `.amdgcn_target` directive decides when present and must agree.
  std::string Arch;
  std::string DefaultArch = "gfx942";
  /// Keep statements MC rejects as opaque instructions (with a warning).
  bool AllowUnknownInstructions = false;
  /// Bounds the text must keep before LLVM MC reads it.
  InputLimits Limits;
  /// Whose pseudo-instructions are kept and whose handler receives the
  /// warnings; null: no pseudo-instructions, warnings printed to stderr.
  StinkyTofuContext *Context = nullptr;
  /// Maps a 1-based line and column of the text read (column 0: unknown)
  /// to where it was written, for text synthesized from another file.
  std::function<std::optional<OriginalLine>(unsigned Line, unsigned Column)> MapPosition;
  /// Lines of the text whose statements its producer already assembled
  /// (a disassembly's): not parsed again. Null: every line is parsed.
  const KnownStatements *Known = nullptr;
};

/// Reads a whole `.s` file. Errors carry `file:line:col: error: ...`;
/// warnings go to the context's handler.
llvm::Expected<std::unique_ptr<Module>>
readAsm(std::unique_ptr<llvm::MemoryBuffer> Buffer, const ReaderOptions &Opts);


/// The target id named by the first `.amdgcn_target "..."` directive, if any.
std::optional<std::string> findTargetDirective(llvm::StringRef Text);

} // namespace stinkytofu

#endif

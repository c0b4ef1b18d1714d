//===- CommentStripping.h - Assembly without its comments --------*- C++ -*-===//
//
// `--strip-comments`: the reference's tool drops the comments of the
// assembly it writes unless given --preserve-comments, so the `.s` tests
// written for it expect output without them (their own `# CHECK` lines
// would otherwise match themselves). StinkyTofu's writer keeps every byte;
// this filter gives the reference's form on request.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_OPT_COMMENTSTRIPPING_H
#define STINKYTOFU_OPT_COMMENTSTRIPPING_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace stinkytofu {

/// \p Text without its line comments: `//` and `;` to the end of the line,
/// and lines whose first non-blank character is `#`. A line that held only
/// a comment goes too. Strings and block comments (`/* ... */`) stay.
std::string stripAsmComments(llvm::StringRef Text);

} // namespace stinkytofu

#endif

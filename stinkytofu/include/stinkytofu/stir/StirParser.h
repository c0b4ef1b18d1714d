//===- StirParser.h - The syntax of the textual IR (`.stir`) -----*- C++ -*-===//
//
// Parses a `.stir` file into its structure (module, functions, blocks,
// instructions with their operands as written, attributes and modifiers),
// keeping where everything stands so that later diagnostics, including
// the assembler's, point into the `.stir` file. What the instructions mean
// is decided later, by LLVM MC (StirReader.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_STIR_STIRPARSER_H
#define STINKYTOFU_STIR_STIRPARSER_H

#include "stinkytofu/ir/Attribute.h"
#include "stinkytofu/stir/StirLexer.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace stinkytofu {

/// One operand as written, with where it starts in the file.
struct StirOperand {
  std::string Text; ///< a quoted label ("loop") is unquoted
  unsigned Line = 0, Column = 0;
};

/// A `mod.<key> = { ... }` attribute, with where its key starts.
struct StirModifier {
  std::string Key; ///< without `mod.`
  AttrDict Attrs;
  unsigned Line = 0, Column = 0;
  /// The key the file wrote where Key stands for it (`waitcnt`), or empty.
  std::string WrittenAs;
};

struct StirInst {
  std::string Mnemonic; ///< without its namespace (`st.`)
  std::vector<StirOperand> Defs, Uses;
  AttrDict Attrs;
  std::vector<StirModifier> Mods;
  unsigned Line = 0, Column = 0;
  /// Where the mnemonic itself starts (after `"st.`).
  unsigned MnemonicColumn = 0;
};

struct StirBlock {
  std::string Name;
  AttrDict Attrs;
  std::vector<StirInst> Insts;
  std::vector<std::string> Successors;
  unsigned Line = 0;
};

struct StirFunc {
  std::string Name;
  AttrDict Attrs;
  std::vector<std::pair<std::string, unsigned>> Preamble; // text, line
  std::vector<StirBlock> Blocks;
};

struct StirModule {
  std::string Name;
  AttrDict Attrs;
  std::vector<StirFunc> Funcs;
  std::vector<std::pair<std::string, unsigned>> Trailing;
};

class StirParser {
public:
  StirParser(llvm::StringRef Buffer, llvm::StringRef File) : Lex(Buffer), File(File) {
    advance();
  }
  llvm::Expected<StirModule> parse();
  llvm::StringRef lineText(unsigned L) const { return Lex.lineText(L); }

private:
  void advance() { Tok = Lex.next(); }
  llvm::Error error(const llvm::Twine &Msg) { return errorAt(Tok.Line, Tok.Column, Msg); }
  llvm::Error errorAt(unsigned Line, unsigned Col, const llvm::Twine &Msg);
  llvm::Error expectPunct(char C);
  static constexpr unsigned MaxListDepth = 64;
  /// A value inside \p Depth enclosing lists.
  llvm::Expected<AttrValue> parseValue(unsigned Depth = 0);
  llvm::Error parseDict(AttrDict &Dict, std::vector<StirModifier> *Mods);
  llvm::Error parseFunc(StirModule &M, std::vector<std::pair<std::string, unsigned>> &Pending);
  /// Blocks up to the function's `}` or, for \p Flat (a file without
  /// st.func), the end of the file.
  llvm::Error parseBlocks(StirFunc &F, bool Flat);
  bool atFlatLabel() const;
  llvm::Error parseBlockBody(StirBlock &BB);
  llvm::Error parseInst(StirBlock &BB);
  llvm::Error parseUses(StirInst &I);

  StirLexer Lex;
  llvm::StringRef File;
  StirToken Tok;
};

} // namespace stinkytofu

#endif

//===- Module.h - A whole assembly file as Asm IR ---------------*- C++ -*-===//
//
// A module holds the file's items in source order: verbatim text (directives,
// sections, kernel descriptors, metadata, macros, comments) and functions.
// Printing every item in order reproduces the input byte for byte until a
// pass changes something.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_MODULE_H
#define STINKYTOFU_IR_MODULE_H

#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/ir/ModuleAssembler.h"
#include "stinkytofu/ir/PackedMCInsts.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"
#include <list>
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu {

class PseudoInstructionRegistry;

enum class TextKind : uint8_t {
  Directive,        ///< .text, .globl, .set, .p2align ...
  KernelDescriptor, ///< .amdhsa_kernel ... .end_amdhsa_kernel
  Metadata,         ///< .amdgpu_metadata ... .end_amdgpu_metadata
  Macro,            ///< .macro ... .endm
  Comment,          ///< comments and blank lines only
  Data,             ///< anything in a non-code section
};

struct ModuleItem {
  enum class Kind : uint8_t { Text, Function } K;
  TextKind Text = TextKind::Directive;
  llvm::StringRef Contents; ///< Text items: the verbatim text.
  Function *Func = nullptr; ///< Function items.
};

class Module {
public:
  Module(std::string Name, std::shared_ptr<const TargetInfo> Target);
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  llvm::StringRef name() const { return Name; }
  void setName(std::string N) { Name = std::move(N); }
  /// The input file name, used in diagnostics and source locations.
  llvm::StringRef fileName() const { return FileName; }
  void setFileName(std::string F) { FileName = std::move(F); }
  const TargetInfo &target() const { return *Target; }
  std::shared_ptr<const TargetInfo> targetPtr() const { return Target; }

  // --- Items in source order ---------------------------------------------
  std::vector<ModuleItem> &items() { return Items; }
  const std::vector<ModuleItem> &items() const { return Items; }
  void appendText(TextKind K, llvm::StringRef Text);
  Function &appendFunction(std::string FnName, bool IsEntry);
  /// Adds a function right after item \p ItemIndex (used when a callable is
  /// split off the tail of another function).
  Function &insertFunctionAfter(size_t ItemIndex, std::string FnName, bool IsEntry);

  /// Makes the blocks of \p F from \p At to its end a new callable function
  /// named \p FnName, placed right after \p F (items and functions stay in
  /// source order, so `.s` printing is unchanged). \p At must not be \p F's
  /// first block. CFG edges are left as they are: rebuild both CFGs.
  Function &splitFunction(Function &F, BasicBlock &At, std::string FnName);

  /// Functions in source order.
  std::list<Function> &functions() { return Functions; }
  const std::list<Function> &functions() const { return Functions; }
  /// The kernel, or the first function when there is no kernel.
  Function *entry();
  const Function *entry() const;
  /// Entry first, then callables in source order (the `.stir` order).
  std::vector<const Function *> functionsInPrintOrder() const;
  Function *findFunction(llvm::StringRef FnName);

  /// Whether the input ended without a newline (kept for byte identity).
  bool endsWithoutNewline() const { return NoFinalNewline; }
  void setEndsWithoutNewline(bool B) { NoFinalNewline = B; }

  /// Keeps \p Text alive as long as the module; returns the stable copy.
  llvm::StringRef save(llvm::StringRef Text) { return Saver.save(Text); }

  /// `.set A, B` aliases between labels/symbols, A -> B as written.
  llvm::StringMap<std::string> &symbolAliases() { return Aliases; }
  const llvm::StringMap<std::string> &symbolAliases() const { return Aliases; }
  /// Follows `.set` aliases to the label they finally name.
  llvm::StringRef resolveAlias(llvm::StringRef Symbol) const;

  /// The assembler (source manager, MC context, symbol values) the module
  /// was read with; owned here so MC expressions stay valid. A module built
  /// without text has none.
  bool hasAssembler() const { return Assembler != nullptr; }
  ModuleAssembler &assembler() { return *Assembler; }
  const ModuleAssembler &assembler() const { return *Assembler; }
  void setAssembler(std::unique_ptr<ModuleAssembler> A);
  /// Keeps the MC instructions of the statements read from the file, which
  /// those instructions refer to (Instruction::referMC) rather than copy.
  void adoptSourceMC(PackedMCInsts Insts) { SourceMC = std::move(Insts); }
  /// The pseudo-instructions the module was read with (its context's), which
  /// name the pass that lowers each; null when it was read without a context
  /// or built without text.
  const PseudoInstructionRegistry *pseudoInstructions() const { return Pseudos; }
  void setPseudoInstructions(const PseudoInstructionRegistry *R) { Pseudos = R; }

private:
  std::string Name, FileName;
  std::shared_ptr<const TargetInfo> Target;
  std::unique_ptr<ModuleAssembler> Assembler;
  PackedMCInsts SourceMC;
  const PseudoInstructionRegistry *Pseudos = nullptr;
  std::vector<ModuleItem> Items;
  std::list<Function> Functions;
  llvm::StringMap<std::string> Aliases;
  bool NoFinalNewline = false;
  llvm::BumpPtrAllocator Arena;
  llvm::StringSaver Saver{Arena};
};

} // namespace stinkytofu

#endif

//===- Branch.h - Branches, long-branch set-PC and calls -----------*- C++ -*-===//
//
// The producer knows what the text loses: SSetPCB64.longBranchLabel names
// the target of a long branch, SSwapPCB64.calleeFuncs the possible callees
// of an activation call. Both are metadata: they never change the text.
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_CODE_BRANCH_H
#define ROCISA_BRIDGE_CODE_BRANCH_H

#include "rocisa-bridge/code/Instruction.h"

namespace rocisa {

/// `<mnemonic> <labelName>`: s_branch, s_cbranch_*, and s_add_pc_i64 (whose
/// labelName is an expression such as `label_X-.-12`).
class BranchInstruction : public Instruction {
public:
  BranchInstruction(std::string ClassName, std::string Mnemonic, std::string LabelName,
                    std::string Comment = "")
      : Instruction(std::move(Mnemonic), std::move(Comment)), labelName(std::move(LabelName)),
        Class(std::move(ClassName)) {}

  std::string operandText() const override { return labelName; }
  std::vector<InstructionInput> getParams() const override { return {labelName}; }
  std::shared_ptr<Item> clone() const override {
    return std::make_shared<BranchInstruction>(*this);
  }
  std::string className() const override { return Class; }
  /// The label the branch goes to: labelName, or for an `s_add_pc_i64`
  /// expression (`label_X-.-12`, `label_X-.Lpost`) the label alone.
  std::string targetLabel() const;

  std::string labelName;

private:
  std::string Class;
};

/// SBranch(label, comment), SCBranchSCC0, ... SAddPCI64(expression, comment).
#define ROCISA_BRANCH(Class, Mnemonic)                                                    \
  std::shared_ptr<BranchInstruction> Class(std::string Label, std::string Comment = "");
#include "rocisa-bridge/code/BranchClasses.def"

/// `s_setpc_b64 s[a:b]`; labelName stays empty. longBranchLabel (empty:
/// none) is the target a long-branch builder stamps on it.
class SSetPCB64 final : public BranchInstruction {
public:
  explicit SSetPCB64(RegisterContainer Src, std::string Comment = "")
      : BranchInstruction("SSetPCB64", "s_setpc_b64", "", std::move(Comment)),
        src(std::move(Src)) {}
  std::string operandText() const override { return src.toString(); }
  std::vector<InstructionInput> getParams() const override { return {src}; }
  std::shared_ptr<Item> clone() const override { return std::make_shared<SSetPCB64>(*this); }

  RegisterContainer src;
  std::string longBranchLabel;
};

/// `s_swappc_b64 s[d:d+1], s[s:s+1]`: a call. calleeFuncs lists the labels
/// it may call (metadata only).
class SSwapPCB64 final : public BranchInstruction {
public:
  SSwapPCB64(RegisterContainer Dst, RegisterContainer Src, std::string Comment = "")
      : BranchInstruction("SSwapPCB64", "s_swappc_b64", "", std::move(Comment)),
        dst(std::move(Dst)), src(std::move(Src)) {}
  std::string operandText() const override { return dst.toString() + ", " + src.toString(); }
  std::vector<InstructionInput> getParams() const override { return {dst, src}; }
  std::shared_ptr<Item> clone() const override { return std::make_shared<SSwapPCB64>(*this); }

  RegisterContainer dst, src;
  std::vector<std::string> calleeFuncs;
};

} // namespace rocisa

#endif

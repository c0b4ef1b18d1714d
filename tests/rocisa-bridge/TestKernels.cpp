//===- TestKernels.cpp - rocisa trees the bridge's tests share ----------===//
#include "TestKernels.h"
#include "rocisa-bridge/builders/LongBranch.h"
#include "rocisa-bridge/code/Branch.h"
#include "rocisa-bridge/code/InstructionClasses.h"
#include "rocisa-bridge/code/Label.h"
#include "rocisa-bridge/pass/RemoveDuplicatedFunction.h"

namespace rocisa::test {

namespace {
std::shared_ptr<CommonInstruction> inst(const char *Class, std::vector<InstructionInput> Ops,
                                        std::string Comment = "") {
  return llvm::cantFail(makeInstruction(Class, std::move(Ops), std::move(Comment)));
}
} // namespace

std::string activationLabel(const std::string &Enum, int Width, const std::string &Suffix) {
  return Label::labelName("Activation_" + Enum + "_VW" + std::to_string(Width) + Suffix);
}

std::shared_ptr<Module> activationWrapper(int Width, const std::string &Suffix) {
  auto Wrapper = std::make_shared<Module>(getActFuncModuleName(Width, 40, 20, 30));
  for (const std::string &Enum : Activations) {
    Label Start("Activation_" + Enum + "_VW" + std::to_string(Width) + Suffix, "");
    auto Body = std::make_shared<Module>(Start.getLabelName());
    Body->isCallable = true;
    Body->callableName = Start.getLabelName();
    Body->add(std::make_shared<Label>(Start));
    for (int V = 0; V < Width; ++V)
      Body->add(inst(Enum == "Relu" ? "VMaxF32" : "VMulF32",
                     {vgpr(40 + V), Enum == "Relu" ? InstructionInput(int64_t(0)) : 0.5,
                      vgpr(40 + V)},
                     Enum));
    Body->add(std::make_shared<SSetPCB64>(sgpr(26, 2), "return"));
    Wrapper->add(Body);
  }
  return Wrapper;
}

std::shared_ptr<Module> activationCallSite(int Width, const std::string &Suffix) {
  auto Site = std::make_shared<Module>("ActivationCall VW" + std::to_string(Width) + Suffix);
  auto Dispatch = std::make_shared<Module>(getActFuncBranchModuleName());
  std::string Tail = "_VW" + std::to_string(Width) + Suffix;
  Label End("ActivationSetPCAddrEnd" + Tail, "");
  for (size_t I = 1; I < Activations.size(); ++I) {
    Dispatch->add(inst("SCmpEQU32", {sgpr(20), int64_t(I)},
                       "activationType == " + std::to_string(I)));
    Dispatch->add(SCBranchSCC1(Label::labelName("To_Activation_" + Activations[I] + Tail),
                               "Branch if true"));
  }
  std::vector<std::string> Callees;
  for (const std::string &Enum : Activations) {
    Label Callee("Activation_" + Enum + Tail, "");
    Dispatch->add(std::make_shared<Label>("To_Activation_" + Enum + Tail, ""));
    Dispatch->addModuleAsFlatItems(
        llvm::cantFail(SGetPositivePCOffset(24, Callee, ContinuousRegister{22, 1})));
    Dispatch->add(SBranch(End.getLabelName()));
    Callees.push_back(Callee.getLabelName());
  }
  Dispatch->add(std::make_shared<Label>(End));
  Site->add(Dispatch);
  auto Call = std::make_shared<SSwapPCB64>(sgpr(26, 2), sgpr(24, 2), "call activation");
  Call->calleeFuncs = Callees;
  Site->add(Call);
  return Site;
}

std::string kernelSignature(const std::string &Arch, const std::string &Name) {
  std::string Accum = Arch.rfind("gfx9", 0) == 0 ? "  .amdhsa_accum_offset 64\n" : "";
  return ".amdgcn_target \"amdgcn-amd-amdhsa--" + Arch + "\"\n" +
         ".text\n.protected " + Name + "\n.globl " + Name + "\n.p2align 8\n.type " + Name +
         ",@function\n.section .rodata,\"a\",@progbits\n.p2align 6\n.amdhsa_kernel " + Name +
         "\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_next_free_vgpr 128\n"
         "  .amdhsa_next_free_sgpr 96\n" +
         Accum + ".end_amdhsa_kernel\n.text\n" + Name + ":\n";
}

std::shared_ptr<KernelBody> activationKernel(const std::string &Arch, std::vector<int> Widths) {
  auto K = std::make_shared<KernelBody>("gemm");
  K->addSignature(kernelSignature(Arch, "gemm"));
  K->setGprs(128, 0, 96);
  Module &Body = *K->body;
  for (int W : Widths)
    for (const char *Suffix : {"", "_1"})
      Body.add(activationCallSite(W, Suffix));
  Body.add(inst("SEndpgm", {}));
  for (int W : Widths)
    for (const char *Suffix : {"", "_1"})
      Body.add(activationWrapper(W, Suffix));
  return K;
}

} // namespace rocisa::test

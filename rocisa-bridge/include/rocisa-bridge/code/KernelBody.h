//===- KernelBody.h - A kernel: signature text and body module -----*- C++ -*-===//
#ifndef ROCISA_BRIDGE_CODE_KERNELBODY_H
#define ROCISA_BRIDGE_CODE_KERNELBODY_H

#include "rocisa-bridge/code/Module.h"

namespace rocisa {

/// rocisa's KernelBody: the signature (here the text in front of the code:
/// sections, `.amdgcn_target`, symbol directives, descriptor, metadata),
/// the body, and the register totals the generator allocated.
class KernelBody final : public Item {
public:
  explicit KernelBody(std::string Name)
      : Item(std::move(Name)), body(std::make_shared<Module>("body")) {}
  KernelBody(const KernelBody &Other)
      : Item(Other), signature(Other.signature), body(Other.body->cloneModule()),
        totalVgprs(Other.totalVgprs), totalAgprs(Other.totalAgprs),
        totalSgprs(Other.totalSgprs) {}

  void addSignature(std::string Text) { signature = std::move(Text); }
  void addBody(std::shared_ptr<Module> M) { body = std::move(M); }
  void setGprs(int Vgprs, int Agprs, int Sgprs) {
    totalVgprs = Vgprs;
    totalAgprs = Agprs;
    totalSgprs = Sgprs;
  }
  /// The signature followed by the body.
  std::string toString() const override { return signature + body->toString(); }
  std::shared_ptr<Item> clone() const override { return std::make_shared<KernelBody>(*this); }
  std::string className() const override { return "KernelBody"; }

  std::string signature;
  std::shared_ptr<Module> body;
  int totalVgprs = 0, totalAgprs = 0, totalSgprs = 0;
};

} // namespace rocisa

#endif

//===- VgprMsbSupport.h - What both VGPR MSB passes share -------*- C++ -*-===//
#ifndef STINKYTOFU_TRANSFORMS_VGPRMSBSUPPORT_H
#define STINKYTOFU_TRANSFORMS_VGPRMSBSUPPORT_H

#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/hw/VgprSpelling.h"
#include "stinkytofu/pass/PassArguments.h"
#include <optional>

namespace stinkytofu {

/// The arguments of both passes: `mode=` (last one wins; unset: the
/// target's) and `stats`.
struct VgprMsbOptions {
  std::optional<VgprMsbMode> Mode;
  bool Stats = false;
  VgprMsbMode modeFor(const TargetInfo &TI) const;
};
llvm::Expected<VgprMsbOptions> parseVgprMsbOptions(const PassArguments &Args,
                                                   llvm::StringRef PassName);

/// The factory of either pass: \p PassT is built from its parsed options.
template <typename PassT>
llvm::Expected<std::unique_ptr<Pass>> createVgprMsbPass(const PassArguments &Args,
                                                        llvm::StringRef PassName) {
  llvm::Expected<VgprMsbOptions> Opts = parseVgprMsbOptions(Args, PassName);
  if (!Opts)
    return Opts.takeError();
  return std::make_unique<PassT>(*Opts);
}

/// True for an s_set_vgpr_msb with an immediate; \p Imm gets it.
bool isSetVgprMsb(const Instruction &I, const VgprMsbCodec &Codec, int64_t *Imm = nullptr);

/// Gives \p I the MC instruction \p Inst and respells its VGPR tokens with
/// \p Fn (to \p Fn's spelling from the token's Begin to its EndWithNote
/// when \p WithNote, else to its End): its statement when it prints from
/// its text, else each register operand, whose typed register becomes the
/// one \p Inst names there.
void respellVgprs(Module &M, Instruction &I, llvm::MCInst Inst, bool WithNote,
                  llvm::function_ref<std::optional<std::string>(const VgprToken &)> Fn);

/// Runs \p Work with gfx1250's VGPRs 256 and up as logical registers when
/// the assembly spells them through s_set_vgpr_msb (`v44` under msb 1 is
/// v300, which an analysis must tell from v44), writing the encoded form
/// back after it.
llvm::Error withLogicalVgprs(Module &M, AnalysisManager &AM, StinkyTofuContext &Ctx,
                             llvm::function_ref<llvm::Error()> Work);

/// An error at \p I.
llvm::Error errorAt(const Module &M, const Instruction &I, const llvm::Twine &Message);

} // namespace stinkytofu

#endif

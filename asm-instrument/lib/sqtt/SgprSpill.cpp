//===- SgprSpill.cpp - Scratch SGPRs, freed by parking live ones ----------===//
#include "asm-instrument/sqtt/SgprSpill.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/Module.h"

using namespace llvm;

namespace stinkytofu::sqtt {

ScratchSGPRs::ScratchSGPRs(const MarkerLiveness &Live, const InsertPoint &P,
                           std::vector<MCRegister> Dead, ArrayRef<MCRegister> Reserved,
                           bool LanesReachable)
    : Live(Live), P(P), Dead(std::move(Dead)), Reserved(Reserved), NoVgpr(!LanesReachable) {}

std::optional<MCRegister> ScratchSGPRs::take() {
  if (NextDead < Dead.size())
    return Dead[NextDead++];
  if (std::optional<MCRegister> R = park())
    return R;
  // Last, VCC's halves where VCC is dead (callable functions whose every
  // SGPR is live and whose VGPRs hold their callers' lanes).
  if (!Vcc) {
    Vcc = Live.deadVccHalves(P);
    std::erase_if(*Vcc, [&](MCRegister R) { return is_contained(Reserved, R); });
  }
  if (NextVcc < Vcc->size())
    return (*Vcc)[NextVcc++];
  return std::nullopt;
}

std::optional<MCRegister> ScratchSGPRs::park() {
  if (NoVgpr)
    return std::nullopt;
  const TargetInfo &TI = Live.units().target();
  if (!Vgpr) {
    std::vector<MCRegister> V = Live.deadVGPRs(P, 1);
    if (V.empty()) {
      NoVgpr = true;
      return std::nullopt;
    }
    Vgpr = V.front();
  }
  if (Spills.size() >= TI.hardware().waveSize())
    return std::nullopt;
  // The highest live SGPR not reserved or parked yet: the low ones hold the
  // kernel arguments and descriptors the code around reads most.
  for (unsigned S = Live.budget().Budget; S-- > 0;) {
    MCRegister R = TI.reg32(RegClass::SGPR, S);
    if (!R.isValid() || !Live.isLive(P, R) || Live.isInFlight(P, R) || is_contained(Reserved, R) ||
        any_of(Spills, [&](const SgprSpill &X) { return X.Sgpr == R; }))
      continue;
    Spills.push_back({R, *Vgpr, unsigned(Spills.size())});
    return R;
  }
  return std::nullopt;
}

/// `v_writelane_b32 vD, sX, <lane>` or `v_readlane_b32 sX, vD, <lane>`.
static InstSpec laneMove(StringRef Mnemonic, MCRegister To, MCRegister From, unsigned Lane,
                         const TargetInfo &TI) {
  return {Mnemonic.str(),
          {BuildOperand::mcReg(To, TI), BuildOperand::mcReg(From, TI), BuildOperand::imm(Lane)}};
}

std::vector<InstSpec> sgprSpillSaves(ArrayRef<SgprSpill> Spills, const TargetInfo &TI) {
  std::vector<InstSpec> Out;
  if (Spills.empty())
    return Out;
  if (StringRef Wait = TI.hardware().sgprLaneSaveWait(); !Wait.empty())
    Out.push_back(modelStatementSpec(Wait));
  for (const SgprSpill &S : Spills)
    Out.push_back(laneMove("v_writelane_b32", S.Vgpr, S.Sgpr, S.Lane, TI));
  return Out;
}

std::vector<InstSpec> sgprSpillRestores(ArrayRef<SgprSpill> Spills, const TargetInfo &TI) {
  std::vector<InstSpec> Out;
  if (Spills.empty())
    return Out;
  for (const SgprSpill &S : Spills)
    Out.push_back(laneMove("v_readlane_b32", S.Sgpr, S.Vgpr, S.Lane, TI));
  if (StringRef Wait = TI.hardware().sgprLaneRestoreWait(); !Wait.empty())
    Out.push_back(modelStatementSpec(Wait));
  return Out;
}

} // namespace stinkytofu::sqtt

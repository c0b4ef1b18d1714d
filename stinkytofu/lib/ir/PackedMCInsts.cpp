//===- PackedMCInsts.cpp - MC instructions stored back to back ------------===//
#include "stinkytofu/ir/PackedMCInsts.h"
#include "llvm/Support/ErrorHandling.h"
#include <cstring>
#include <type_traits>

using namespace llvm;

namespace stinkytofu {

static_assert(std::is_trivially_copyable_v<MCOperand> && sizeof(MCOperand) == 16,
              "a packed operand is an MCOperand's bytes in two words");

PackedMCInsts::Offset PackedMCInsts::append(const MCInst &Inst) {
  if (Inst.getNumOperands() > 0xffff || Inst.getFlags() > 0xffff)
    report_fatal_error("MC instruction too large to pack");
  Offset At = Offset(Words.size());
  Words.push_back(uint64_t(Inst.getOpcode()) | uint64_t(Inst.getNumOperands()) << 32 |
                  uint64_t(Inst.getFlags()) << 48);
  size_t OpsAt = Words.size();
  Words.resize(OpsAt + 2 * Inst.getNumOperands());
  std::memcpy(Words.data() + OpsAt, Inst.begin(), 16 * Inst.getNumOperands());
  return At;
}

PackedMCInsts::Offset PackedMCInsts::appendAll(const PackedMCInsts &From) {
  Offset At = Offset(Words.size());
  Words.insert(Words.end(), From.Words.begin(), From.Words.end());
  return At;
}

PackedMCInsts::Offset PackedMCInsts::next(Offset At) const {
  return At + 1 + 2 * unsigned((Words[At] >> 32) & 0xffff);
}

SmallVector<MCInst, 1> PackedMCInsts::unpack(const uint64_t *Record, unsigned Count) {
  SmallVector<MCInst, 1> Insts(Count);
  for (MCInst &Inst : Insts) {
    uint64_t Header = *Record++;
    Inst.setOpcode(unsigned(Header));
    Inst.setFlags(unsigned(Header >> 48));
    unsigned NumOps = unsigned((Header >> 32) & 0xffff);
    for (unsigned I = 0; I < NumOps; ++I, Record += 2) {
      MCOperand Op;
      std::memcpy(&Op, Record, sizeof(Op));
      Inst.addOperand(Op);
    }
  }
  return Insts;
}

SmallVector<MCInst, 1> PackedMCInsts::unpackAll() const {
  unsigned Count = 0;
  for (Offset At = 0; At < Words.size(); At = next(At))
    ++Count;
  return unpack(Words.data(), Count);
}

} // namespace stinkytofu

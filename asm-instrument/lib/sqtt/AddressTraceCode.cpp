//===- AddressTraceCode.cpp - The records of one traced operation ---------===//
//
// Every value goes to M0 and is recorded with s_ttracedata. A sum is
// computed into M0 itself (`s_add_u32 m0, ...`), so no SGPR an SALU wrote is
// read again by the trace, but for the lane counter and a folded saddr base;
// on the targets with LLVM's VALUReadSGPRHazard those reads are preceded by
// `s_wait_alu depctr_sa_sdst(0)` as LLVM places it in such a loop.
//
//===----------------------------------------------------------------------===//
#include "asm-instrument/sqtt/AddressTrace.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace stinkytofu::sqtt {

unsigned traceTemporaries(const TracedOperation &Op) {
  switch (Op.Category) {
  case AddressCategory::Flat64:
    if (Op.SAddrLo.empty())
      return 2;
    return Op.Offset ? 3 : 1;
  case AddressCategory::Lds32:
  case AddressCategory::LanePermute:
  case AddressCategory::StructBuffer:
    return 1;
  case AddressCategory::Buffer:
    return Op.AddrLo.empty() ? 0 : 1;
  }
  return 0;
}

unsigned traceLoops(const TracedOperation &Op) {
  return Op.Category == AddressCategory::StructBuffer ? 2 : 1;
}

namespace {

using Op = BuildOperand;

Op u32(int64_t V) { return Op::imm(uint32_t(V)); }

/// The operand a register name or an integer of the traced operation
/// (TracedOperation, as MC prints them) stands for: `v5`, `s[8]`'s `s8`,
/// `ttmp4`, `16`, `0x100`, `m0`.
Op valueOf(StringRef Name) {
  int64_t V;
  if (!Name.getAsInteger(10, V) && Op::imm(V).spelling() == Name)
    return Op::imm(V);
  uint64_t U;
  if (StringRef Digits = Name; Digits.consume_front("0x") && !Digits.getAsInteger(16, U))
    for (bool Lower : {true, false})
      if (Op::hexImm(U, Lower).spelling() == Name)
        return Op::hexImm(U, Lower);
  static constexpr std::pair<StringRef, RegFile> Files[] = {
      {"ttmp", RegFile::TTMP}, {"s", RegFile::SGPR}, {"v", RegFile::VGPR}, {"a", RegFile::AGPR}};
  for (auto [Prefix, File] : Files) {
    StringRef Index = Name;
    unsigned N;
    if (Index.consume_front(Prefix) && !Index.getAsInteger(10, N) &&
        Op::reg(File, N).spelling() == Name)
      return Op::reg(File, N);
  }
  return Op::special(Name); // exec_lo, m0, vcc_lo
}

class TraceCode {
public:
  TraceCode(const TracedOperation &Traced, const TraceRegisters &Regs, const TraceTarget &Target)
      : Traced(Traced), Regs(Regs), Target(Target) {}

  std::vector<TraceStatement> run() {
    // The scalar operands may have been written by the program's SALU just
    // before.
    bool ReadsScalars = !Traced.SAddrLo.empty() || !Traced.Rsrc0.empty();
    if (ReadsScalars)
      waitForSaluWrites();
    record(Op::special("exec_lo"));
    record(Target.WaveSize == 64 ? Op::special("exec_hi") : Op::imm(0));
    switch (Traced.Category) {
    case AddressCategory::Flat64:
      flat64();
      break;
    case AddressCategory::Lds32:
    case AddressCategory::LanePermute:
      laneLoop([&] { lane32(Traced.AddrLo, Traced.Offset); });
      break;
    case AddressCategory::Buffer:
    case AddressCategory::StructBuffer:
      buffer();
      break;
    }
    return std::move(Out);
  }

private:
  void emit(StringRef Mnemonic, std::initializer_list<Op> Operands = {}) {
    Out.push_back({TraceStatement::Kind::Instruction, {Mnemonic.str(), Operands}});
  }
  /// M0 was just written: record it.
  void trace() {
    if (Target.NopAfterM0Write)
      emit("s_nop", {Op::imm(0)});
    emit("s_ttracedata");
  }
  void record(const Op &Value) {
    emit("s_mov_b32", {M0, Value});
    trace();
  }
  void waitForSaluWrites() {
    if (!Target.SaluWriteWait.empty())
      Out.push_back({TraceStatement::Kind::Instruction, modelStatementSpec(Target.SaluWriteWait)});
  }
  const Op &temp(unsigned K) const { return Regs.Temps[K]; }

  /// Lanes 0 .. WaveSize-1 of \p Body, counted in the counter SGPR.
  template <typename BodyFn> void laneLoop(BodyFn Body) {
    const Op &Counter = Regs.Counter;
    emit("s_mov_b32", {Counter, Op::imm(0)});
    Out.push_back({TraceStatement::Kind::LoopHead, {}});
    waitForSaluWrites(); // the counter, read as the lane select
    Body();
    emit("s_add_u32", {Counter, Counter, Op::imm(1)});
    waitForSaluWrites();
    emit("s_cmp_lg_u32", {Counter, Op::imm(Target.WaveSize)});
    Out.push_back({TraceStatement::Kind::LoopBack, {"s_cbranch_scc1", {}}});
  }

  /// The lane's \p VGPR + \p Offset, 32 bits.
  void lane32(const std::string &VGPR, int64_t Offset) {
    emit("v_readlane_b32", {temp(0), valueOf(VGPR), Regs.Counter});
    if (Offset) {
      emit("s_add_u32", {M0, temp(0), u32(Offset)});
      trace();
    } else {
      record(temp(0));
    }
  }

  void flat64() {
    const Op OffLo = u32(Traced.Offset), OffHi = u32(Traced.Offset < 0 ? -1 : 0);
    if (Traced.SAddrLo.empty()) {
      laneLoop([&] {
        emit("v_readlane_b32", {temp(0), valueOf(Traced.AddrLo), Regs.Counter});
        emit("v_readlane_b32", {temp(1), valueOf(Traced.AddrHi), Regs.Counter});
        if (!Traced.Offset) {
          record(temp(0));
          record(temp(1));
          return;
        }
        emit("s_add_u32", {M0, temp(0), OffLo});
        trace();
        emit("s_addc_u32", {M0, temp(1), OffHi});
        trace();
      });
      return;
    }
    // saddr + zero-extended voffset + offset.
    Op BaseLo = valueOf(Traced.SAddrLo), BaseHi = valueOf(Traced.SAddrHi);
    if (Traced.Offset) {
      emit("s_add_u32", {temp(1), BaseLo, OffLo});
      emit("s_addc_u32", {temp(2), BaseHi, OffHi});
      BaseLo = temp(1);
      BaseHi = temp(2);
    }
    laneLoop([&] {
      emit("v_readlane_b32", {temp(0), valueOf(Traced.AddrLo), Regs.Counter});
      emit("s_add_u32", {M0, temp(0), BaseLo});
      trace();
      emit("s_addc_u32", {M0, BaseHi, Op::imm(0)});
      trace();
    });
  }

  void buffer() {
    record(valueOf(Traced.Rsrc0));
    record(valueOf(Traced.Rsrc1));
    // soffset + the immediate offset, which the decoder adds to the base.
    int64_t SOffset;
    if (!StringRef(Traced.SOffset).getAsInteger(0, SOffset)) {
      record(u32(SOffset + Traced.Offset));
    } else if (Traced.Offset) {
      emit("s_add_u32", {M0, valueOf(Traced.SOffset), u32(Traced.Offset)});
      trace();
    } else {
      record(valueOf(Traced.SOffset));
    }
    laneLoop([&] {
      if (Traced.AddrLo.empty())
        record(Op::imm(0));
      else
        lane32(Traced.AddrLo, 0);
    });
    if (Traced.Category == AddressCategory::StructBuffer)
      laneLoop([&] { lane32(Traced.VIndex, 0); });
  }

  const Op M0 = Op::special("m0");
  const TracedOperation &Traced;
  const TraceRegisters &Regs;
  const TraceTarget &Target;
  std::vector<TraceStatement> Out;
};

} // namespace

std::vector<TraceStatement> addressTraceCode(const TracedOperation &Op,
                                             const TraceRegisters &Regs,
                                             const TraceTarget &Target) {
  return TraceCode(Op, Regs, Target).run();
}

} // namespace stinkytofu::sqtt

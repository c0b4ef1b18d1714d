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

std::string u32(int64_t V) { return std::to_string(uint32_t(V)); }

class TraceCode {
public:
  TraceCode(const TracedOperation &Op, const TraceRegisters &Regs, const TraceTarget &Target)
      : Op(Op), Regs(Regs), Target(Target) {}

  std::vector<TraceStatement> run() {
    // The scalar operands may have been written by the program's SALU just
    // before.
    bool ReadsScalars = !Op.SAddrLo.empty() || !Op.Rsrc0.empty();
    if (ReadsScalars)
      waitForSaluWrites();
    record("exec_lo");
    record(Target.WaveSize == 64 ? "exec_hi" : "0");
    switch (Op.Category) {
    case AddressCategory::Flat64:
      flat64();
      break;
    case AddressCategory::Lds32:
    case AddressCategory::LanePermute:
      laneLoop([&] { lane32(Op.AddrLo, Op.Offset); });
      break;
    case AddressCategory::Buffer:
    case AddressCategory::StructBuffer:
      buffer();
      break;
    }
    return std::move(Out);
  }

private:
  void emit(std::string Text) { Out.push_back({TraceStatement::Kind::Instruction, std::move(Text)}); }
  /// M0 was just written: record it.
  void trace() {
    if (Target.NopAfterM0Write)
      emit("s_nop 0");
    emit("s_ttracedata");
  }
  void record(const std::string &Value) {
    emit("s_mov_b32 m0, " + Value);
    trace();
  }
  void waitForSaluWrites() {
    if (!Target.SaluWriteWait.empty())
      emit(Target.SaluWriteWait);
  }
  const std::string &temp(unsigned K) const { return Regs.Temps[K]; }

  /// Lanes 0 .. WaveSize-1 of \p Body, counted in the counter SGPR.
  template <typename BodyFn> void laneLoop(BodyFn Body) {
    emit("s_mov_b32 " + Regs.Counter + ", 0");
    Out.push_back({TraceStatement::Kind::LoopHead, ""});
    waitForSaluWrites(); // the counter, read as the lane select
    Body();
    emit("s_add_u32 " + Regs.Counter + ", " + Regs.Counter + ", 1");
    waitForSaluWrites();
    emit("s_cmp_lg_u32 " + Regs.Counter + ", " + std::to_string(Target.WaveSize));
    Out.push_back({TraceStatement::Kind::LoopBack, "s_cbranch_scc1"});
  }

  /// The lane's \p VGPR + \p Offset, 32 bits.
  void lane32(const std::string &VGPR, int64_t Offset) {
    emit("v_readlane_b32 " + temp(0) + ", " + VGPR + ", " + Regs.Counter);
    if (Offset) {
      emit("s_add_u32 m0, " + temp(0) + ", " + u32(Offset));
      trace();
    } else {
      record(temp(0));
    }
  }

  void flat64() {
    const std::string OffLo = u32(Op.Offset), OffHi = u32(Op.Offset < 0 ? -1 : 0);
    if (Op.SAddrLo.empty()) {
      laneLoop([&] {
        emit("v_readlane_b32 " + temp(0) + ", " + Op.AddrLo + ", " + Regs.Counter);
        emit("v_readlane_b32 " + temp(1) + ", " + Op.AddrHi + ", " + Regs.Counter);
        if (!Op.Offset) {
          record(temp(0));
          record(temp(1));
          return;
        }
        emit("s_add_u32 m0, " + temp(0) + ", " + OffLo);
        trace();
        emit("s_addc_u32 m0, " + temp(1) + ", " + OffHi);
        trace();
      });
      return;
    }
    // saddr + zero-extended voffset + offset.
    std::string BaseLo = Op.SAddrLo, BaseHi = Op.SAddrHi;
    if (Op.Offset) {
      BaseLo = temp(1);
      BaseHi = temp(2);
      emit("s_add_u32 " + BaseLo + ", " + Op.SAddrLo + ", " + OffLo);
      emit("s_addc_u32 " + BaseHi + ", " + Op.SAddrHi + ", " + OffHi);
    }
    laneLoop([&] {
      emit("v_readlane_b32 " + temp(0) + ", " + Op.AddrLo + ", " + Regs.Counter);
      emit("s_add_u32 m0, " + temp(0) + ", " + BaseLo);
      trace();
      emit("s_addc_u32 m0, " + BaseHi + ", 0");
      trace();
    });
  }

  void buffer() {
    record(Op.Rsrc0);
    record(Op.Rsrc1);
    // soffset + the immediate offset, which the decoder adds to the base.
    int64_t SOffset;
    if (!StringRef(Op.SOffset).getAsInteger(0, SOffset)) {
      record(u32(SOffset + Op.Offset));
    } else if (Op.Offset) {
      emit("s_add_u32 m0, " + Op.SOffset + ", " + u32(Op.Offset));
      trace();
    } else {
      record(Op.SOffset);
    }
    laneLoop([&] {
      if (Op.AddrLo.empty())
        record("0");
      else
        lane32(Op.AddrLo, 0);
    });
    if (Op.Category == AddressCategory::StructBuffer)
      laneLoop([&] { lane32(Op.VIndex, 0); });
  }

  const TracedOperation &Op;
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

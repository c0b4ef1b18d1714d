//===- WaitCounters.cpp - The memory events of an instruction ------------===//
//
// The class of an instruction comes from MC: its TSFlags (at the bit
// positions HardwareModel.td declares for LLVM 22), mayLoad/mayStore and,
// for a DS operation, whether MC prints it with `gds`. The events follow
// hw-dependencies-reference.md 1.5; which counter each one increments is the
// processor's (CounterEvent records).
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/hw/WaitCounters.h"

#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace stinkytofu {

static constexpr StringRef EventNames[NumWaitEvents] = {
    "VmemLoad", "VmemStore", "LdsDma",  "FlatLds", "Lds",         "Gds",       "GdsGprLock",
    "Smem",     "Message",   "Export",  "LdsDir",  "Translation", "SmemTranslation", "TensorLds", "AsyncLds"};

StringRef waitEventName(WaitEvent E) { return EventNames[static_cast<unsigned>(E)]; }

static std::optional<WaitEvent> eventNamed(StringRef Name) {
  for (unsigned E = 0; E < NumWaitEvents; ++E)
    if (EventNames[E] == Name)
      return static_cast<WaitEvent>(E);
  return std::nullopt;
}

bool WaitCounts::empty() const {
  // Asked for every instruction of every path the wait analysis walks:
  // without an early exit the compiler takes all counters at once. NoWait
  // has every bit set: so has the AND of the counts only when each is
  // NoWait.
  int All = NoWait;
  for (int N : Count)
    All &= N;
  return All == NoWait;
}

void WaitCounts::merge(const WaitCounts &Other) {
  for (unsigned C = 0; C < MaxWaitCounters; ++C)
    if (Other.waits(C))
      require(C, Other.Count[C]);
}

static uint64_t tsFlagMask(StringRef Name) {
  std::optional<unsigned> Bit = HardwareModel::tsFlagBit(Name);
  if (!Bit)
    report_fatal_error(Twine("HardwareModel.td declares no TSFlags bit ") + Name);
  return uint64_t(1) << *Bit;
}

CounterModel::CounterModel(const TargetInfo &TI) : TI(&TI), HW(&TI.hardware()) {
  if (numCounters() > MaxWaitCounters)
    report_fatal_error("the hardware model has more wait counters than MaxWaitCounters");
  for (const CounterEventDesc &D : HW->counterEvents()) {
    std::optional<WaitEvent> E = eventNamed(D.Event);
    if (!E)
      report_fatal_error(Twine("HardwareModel.td names an unknown wait event ") + D.Event);
    EventCounter[unsigned(*E)] = D.Counter;
    EventInOrder[unsigned(*E)] = D.InOrder;
  }
  MubufMask = tsFlagMask("MUBUF");
  MtbufMask = tsFlagMask("MTBUF");
  SmrdMask = tsFlagMask("SMRD");
  ImageMask = tsFlagMask("MIMG") | tsFlagMask("VIMAGE") | tsFlagMask("VSAMPLE");
  ExpMask = tsFlagMask("EXP");
  FlatMask = tsFlagMask("FLAT");
  DsMask = tsFlagMask("DS");
  LdsDirMask = tsFlagMask("LDSDIR");
  FlatGlobalMask = tsFlagMask("FlatGlobal");
  FlatScratchMask = tsFlagMask("FlatScratch");
  AtomicRetMask = tsFlagMask("IsAtomicRet");
  AtomicNoRetMask = tsFlagMask("IsAtomicNoRet");
  GwsMask = tsFlagMask("GWS");
}

std::optional<unsigned> CounterModel::counterNamed(StringRef Name) const {
  for (unsigned C = 0; C < numCounters(); ++C)
    if (counterName(C) == Name)
      return C;
  return std::nullopt;
}

MemoryAccess CounterModel::classify(const MCInst &Inst, StringRef Mnemonic) const {
  MemoryAccess A;
  auto Add = [&](WaitEvent E) {
    if (counterOf(E))
      A.Events |= eventBit(E);
  };
  const MCInstrDesc &Desc = TI->instrInfo().get(Inst.getOpcode());
  const uint64_t TS = Desc.TSFlags;
  const bool Load = Desc.mayLoad(), Store = Desc.mayStore();

  if (StringRef Special = HardwareModel::eventOfMnemonic(Mnemonic); !Special.empty()) {
    WaitEvent E = *eventNamed(Special);
    Add(E);
    // A transfer into LDS writes it; one out of LDS reads it.
    if (E == WaitEvent::TensorLds || E == WaitEvent::AsyncLds) {
      bool IntoLds = Mnemonic.contains("_to_lds");
      A.WritesLds = IntoLds;
      A.ReadsLds = !IntoLds;
      Add(WaitEvent::Translation);
    }
    return A;
  }
  if (TS & SmrdMask) {
    Add(WaitEvent::Smem);
    Add(WaitEvent::SmemTranslation);
    return A;
  }
  if (TS & ExpMask) {
    Add(WaitEvent::Export);
    return A;
  }
  if (TS & LdsDirMask) {
    Add(WaitEvent::LdsDir);
    return A;
  }
  if (TS & DsMask) {
    // `gds` is the last immediate of a DS instruction that has it; only a
    // set one is worth asking MC's printer about.
    bool Gds = TS & GwsMask;
    auto LastImm = find_if(reverse(Inst), [](const MCOperand &Op) { return Op.isImm(); });
    if (!Gds && LastImm != reverse(Inst).end() && LastImm->getImm() != 0) {
      auto [It, New] = PrintedGds.try_emplace({Inst.getOpcode(), LastImm->getImm()}, false);
      if (New) {
        std::string Printed = TI->printMC(Inst);
        It->second = is_contained(split(Printed, ' '), "gds");
      }
      Gds = It->second;
    }
    if (Gds) {
      Add(WaitEvent::Gds);
      Add(WaitEvent::GdsGprLock);
    } else {
      Add(WaitEvent::Lds);
      A.ReadsLds = Load;
      A.WritesLds = Store;
    }
    return A;
  }
  const bool Atomic = TS & (AtomicRetMask | AtomicNoRetMask);
  A.Atomic = Atomic;
  if (TS & (MubufMask | MtbufMask | FlatMask | ImageMask)) {
    // A load that also stores without being an atomic writes LDS: the LDS
    // DMA forms (`buffer_load_dword ... lds`, `global_load_lds_*`).
    if (Load && Store && !Atomic && !(TS & ImageMask)) {
      Add(WaitEvent::LdsDma);
      A.WritesLds = true;
    } else if (Load && (!Store || (TS & AtomicRetMask))) {
      Add(WaitEvent::VmemLoad);
    } else if (Store) {
      Add(WaitEvent::VmemStore);
    } else {
      // Cache maintenance (buffer_wbinvl1, global_inv, ...): no data.
      return A;
    }
    Add(WaitEvent::Translation);
    if ((TS & FlatMask) && !(TS & (FlatGlobalMask | FlatScratchMask))) {
      A.GenericFlat = true;
      Add(WaitEvent::FlatLds);
    }
  }
  return A;
}

} // namespace stinkytofu

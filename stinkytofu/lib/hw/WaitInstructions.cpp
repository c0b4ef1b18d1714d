//===- WaitInstructions.cpp - Reading and spelling counter waits ----------===//
//
// MC's printer decodes `s_waitcnt` into its named fields (a field it leaves
// out waits for nothing); the single-counter waits carry their count as the
// immediate; the gfx12 combined waits pack two counts at the offsets of
// HardwareModel.td. Spelled waits are plain assembly, which MC's parser
// encodes for the target.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace stinkytofu {

/// The last immediate operand of \p Inst: the count of a wait.
static std::optional<int64_t> lastImmediate(const MCInst &Inst) {
  for (unsigned I = Inst.getNumOperands(); I-- > 0;)
    if (Inst.getOperand(I).isImm())
      return Inst.getOperand(I).getImm();
  return std::nullopt;
}

std::optional<WaitCounts> CounterModel::decodeWait(const MCInst &Inst,
                                                   StringRef Mnemonic) const {
  SmallVector<StringRef, 3> Names = HardwareModel::waitCounters(Mnemonic);
  if (Names.empty())
    return std::nullopt;
  WaitCounts W;
  auto Set = [&](StringRef Name, int64_t Count) {
    std::optional<unsigned> C = counterNamed(Name);
    // A count at the counter's limit lets everything stay outstanding.
    if (C && Count >= 0 && Count < int64_t(counterMax(*C)))
      W.require(*C, int(Count));
  };
  std::optional<int64_t> Imm = lastImmediate(Inst);
  if (const PackedWaitLayout *L = HardwareModel::packedWaitLayout(Mnemonic)) {
    if (!Imm)
      return std::nullopt;
    for (unsigned F = 0; F < L->NumFields && F < Names.size(); ++F)
      Set(Names[F], L->decode(*Imm, F));
    return W;
  }
  if (Names.size() == 1) {
    if (!Imm)
      return std::nullopt;
    Set(Names[0], *Imm);
    return W;
  }
  // `s_waitcnt vmcnt(0) lgkmcnt(3)`: MC prints each field it waits on.
  auto Key = std::make_pair(Inst.getOpcode(), Imm.value_or(-1));
  if (auto It = DecodedWaits.find(Key); It != DecodedWaits.end())
    return It->second;
  std::string Printed = target().printMC(Inst);
  for (StringRef Token : split(Printed, ' ')) {
    auto [Name, Rest] = Token.split('(');
    int64_t Count;
    if (is_contained(Names, Name) && Rest.consume_back(")") && !Rest.getAsInteger(10, Count))
      Set(Name, Count);
  }
  DecodedWaits[Key] = W;
  return W;
}

SmallVector<WaitStatement, 2> CounterModel::waitStatements(const WaitCounts &Counts) const {
  SmallVector<WaitStatement, 2> Out;
  WaitCounts Left = Counts;
  auto Own = [&](StringRef Name) { return counterNamed(Name).has_value(); };
  while (!Left.empty()) {
    // The wait covering most of what is left; among equals the one with
    // the most fields (s_waitcnt before gfx10's s_waitcnt_vmcnt).
    StringRef Best;
    SmallVector<StringRef, 3> BestNames;
    unsigned BestCovered = 0;
    for (StringRef M : HardwareModel::counterWaitMnemonics()) {
      SmallVector<StringRef, 3> Names = HardwareModel::waitCounters(M);
      if (!all_of(Names, Own))
        continue;
      unsigned Covered = count_if(Names, [&](StringRef N) { return Left.waits(*counterNamed(N)); });
      // A packed wait is used only where all its counters wait (as LLVM).
      if (Covered == 0 ||
          (HardwareModel::packedWaitLayout(M) && Covered != Names.size()))
        continue;
      if (Covered > BestCovered || (Covered == BestCovered && Names.size() > BestNames.size())) {
        Best = M;
        BestNames = Names;
        BestCovered = Covered;
      }
    }
    if (Best.empty())
      break; // a counter no wait instruction names: nothing to spell
    auto CountOf = [&](StringRef Name) {
      unsigned C = *counterNamed(Name);
      return Left.waits(C) ? Left.Count[C] : int(counterMax(C));
    };
    WaitStatement W;
    W.Mnemonic = Best;
    if (const PackedWaitLayout *L = HardwareModel::packedWaitLayout(Best)) {
      unsigned Imm = 0;
      for (unsigned F = 0; F < L->NumFields; ++F)
        Imm |= unsigned(CountOf(BestNames[F])) << L->Offsets[F];
      W.Immediate = Imm;
    } else if (BestNames.size() > 1) {
      for (StringRef N : BestNames)
        if (Left.waits(*counterNamed(N)))
          W.Fields.push_back({N, unsigned(CountOf(N))});
    } else {
      W.NullFirst = Best.starts_with("s_waitcnt_");
      W.Immediate = unsigned(CountOf(BestNames[0]));
    }
    for (StringRef N : BestNames)
      Left.Count[*counterNamed(N)] = WaitCounts::NoWait;
    Out.push_back(std::move(W));
  }
  return Out;
}

SmallVector<std::string, 2> CounterModel::spellWaits(const WaitCounts &Counts) const {
  SmallVector<std::string, 2> Out;
  for (const WaitStatement &W : waitStatements(Counts))
    Out.push_back(W.text());
  return Out;
}

std::string WaitStatement::text() const {
  std::string Text = Mnemonic.str();
  if (Immediate)
    return Text + (NullFirst ? " null, " : " ") + "0x" + utohexstr(*Immediate);
  for (auto [Name, Count] : Fields)
    Text += (" " + Name + "(" + Twine(Count) + ")").str();
  return Text;
}

} // namespace stinkytofu

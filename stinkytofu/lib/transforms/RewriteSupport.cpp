//===- RewriteSupport.cpp - What the rewrite and cleanup passes share ----===//
#include "stinkytofu/transforms/RewriteSupport.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCInstrInfo.h"
#include <map>
#include <mutex>
#include <vector>

using namespace llvm;

namespace stinkytofu {

SourceDiagnostic diagnosticAt(const Module &M, const Instruction &I, SourceMgr::DiagKind Kind,
                              std::string Message) {
  SourceDiagnostic D;
  D.Kind = Kind;
  D.File = M.fileName().str();
  D.Line = I.location().Line;
  D.Column = I.location().Column;
  D.LineText = I.sourceText().rtrim("\r\n").str();
  D.Message = std::move(Message);
  return D;
}

Error parseFlagArguments(const PassArguments &Args, ArrayRef<FlagArgument> Flags) {
  for (const auto &[Key, Value] : Args) {
    const FlagArgument *Flag = nullptr;
    for (const FlagArgument &F : Flags)
      if (F.first == Key)
        Flag = &F;
    if (!Flag) {
      std::vector<std::string> Known;
      for (const FlagArgument &F : Flags)
        Known.push_back(F.first.str());
      return createStringError(inconvertibleErrorCode(),
                               "unknown argument '" + Key + "'" +
                                   (Known.empty() ? std::string(" (takes none)")
                                                  : " (known: " + join(Known, ", ") + ")"));
    }
    if (Value.empty() || Value == "true" || Value == "1")
      *Flag->second = true;
    else if (Value == "false" || Value == "0")
      *Flag->second = false;
    else
      return createStringError(inconvertibleErrorCode(), "argument '" + Key +
                                                             "': expected true or false, got '" +
                                                             Value + "'");
  }
  return Error::success();
}

bool isRewritable(const Module &M, const PassScope &Scope, const Instruction &I) {
  return I.kind() == InstKind::Machine && !I.hasStaleMC() && inScope(M, Scope, I);
}

unsigned eraseInstructions(Module &M, const PassScope &Scope,
                           const std::function<bool(const Instruction &)> &Pick) {
  std::vector<Instruction *> Doomed;
  for (Function &F : M.functions())
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions())
        if (isRewritable(M, Scope, I) && Pick(I))
          Doomed.push_back(&I);
  eraseAndReport(Doomed);
  return Doomed.size();
}

PreservedAnalyses eraseAndReport(ArrayRef<Instruction *> Doomed, bool Changed) {
  for (Instruction *I : Doomed)
    I->eraseFromParent();
  return Changed || !Doomed.empty() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

Instruction *trackedInstruction(BlockItem &Item) {
  auto *I = dyn_cast<Instruction>(&Item);
  if (!I || I->kind() != InstKind::Machine || I->facts().has(IF_Call) ||
      I->facts().has(IF_Opaque))
    return nullptr;
  return I;
}

namespace {

class ErasePass final : public Pass {
public:
  ErasePass(StringRef Name, std::function<bool(const Instruction &)> Pick,
            std::function<Error(Module &)> Check)
      : Name(Name.str()), Pick(std::move(Pick)), Check(std::move(Check)) {}
  StringRef name() const override { return Name; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    if (Check)
      if (Error E = Check(M))
        return std::move(E);
    return eraseInstructions(M, Scope, Pick) ? PreservedAnalyses::none()
                                             : PreservedAnalyses::all();
  }

private:
  std::string Name;
  std::function<bool(const Instruction &)> Pick;
  std::function<Error(Module &)> Check;
};

} // namespace

std::unique_ptr<Pass> createErasePass(StringRef Name,
                                      std::function<bool(const Instruction &)> Pick,
                                      std::function<Error(Module &)> Check) {
  return std::make_unique<ErasePass>(Name, std::move(Pick), std::move(Check));
}

bool targetHasMnemonic(Module &M, StringRef Mnemonic) {
  if (Mnemonic.empty() || !all_of(Mnemonic, [](char C) { return isAlnum(C) || C == '_'; }))
    return false;
  // The mnemonic without operands: MC says it knows no such instruction,
  // or what operands it wants.
  InstBuilder B(M);
  Expected<Instruction> I = B.build(Mnemonic, {});
  if (I)
    return true;
  // MC read the mnemonic and wants operands: the target has it.
  std::string Message = toString(I.takeError());
  return !StringRef(Message).contains("invalid instruction") &&
         !StringRef(Message).contains("not supported on this GPU");
}

StringRef baseMnemonic(StringRef Mnemonic) {
  for (StringRef Suffix : {"_e64_dpp", "_e32", "_e64", "_sdwa", "_dpp"})
    if (Mnemonic.consume_back(Suffix))
      break;
  return Mnemonic;
}

std::optional<MCRegister> operandRegister(const Module &M, const Operand &Op) {
  if (!Op.isRegister() || !Op.firstReg() || Op.regCount() != 1 || Op.half() != RegHalf::Full)
    return std::nullopt;
  RegClass C;
  switch (Op.regFile()) {
  case RegFile::SGPR: C = RegClass::SGPR; break;
  case RegFile::VGPR: C = RegClass::VGPR; break;
  case RegFile::AGPR: C = RegClass::AGPR; break;
  case RegFile::TTMP: C = RegClass::TTMP; break;
  default: return std::nullopt;
  }
  MCRegister R = M.target().reg32(C, *Op.firstReg());
  if (!R.isValid())
    return std::nullopt;
  return R;
}

std::optional<int64_t> writtenImmediate(const Instruction &I, const TargetInfo &TI,
                                        unsigned Index) {
  auto Map = mapOperandsToMC(I, TI);
  if (Index >= Map.size() || !Map[Index] || I.mcInsts().size() != 1)
    return std::nullopt;
  const MCOperand &Op = I.mcInsts()[0].getOperand(*Map[Index]);
  return Op.isImm() ? std::optional<int64_t>(Op.getImm()) : std::nullopt;
}

bool hasSideEffects(const TargetInfo &TI, const Instruction &I) {
  // Opcode names by target, built once per processor and kept.
  static std::mutex Lock;
  static std::map<std::string, StringMap<unsigned>> ByTarget;
  const MCInstrInfo &MII = TI.instrInfo();
  const StringMap<unsigned> *Names;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto [It, New] = ByTarget.try_emplace((TI.processor() + ":" + TI.features()).str());
    if (New)
      for (unsigned Op = 0, E = MII.getNumOpcodes(); Op != E; ++Op)
        It->second[MII.getName(Op)] = Op;
    Names = &It->second;
  }
  if (I.kind() != InstKind::Machine || I.mcInsts().size() != 1)
    return true;
  unsigned Opcode = I.facts().Opcode;
  // Strip the encoding's target suffixes (_gfx12, _vi, _gfx6_gfx7, ...).
  StringRef Name = MII.getName(Opcode);
  for (;;) {
    auto [Head, Last] = Name.rsplit('_');
    if (Head == Name || !(Last.starts_with("gfx") || Last == "vi" || Last == "si" || Last == "ci"))
      break;
    Name = Head;
  }
  auto It = Names->find(Name);
  if (It == Names->end() || It->second == Opcode)
    return MII.get(Opcode).hasUnmodeledSideEffects();
  return MII.get(It->second).hasUnmodeledSideEffects();
}

bool isDppOrSdwa(const TargetInfo &TI, const Instruction &I) {
  // `_sdwa` or `_dpp` in any case, found at the underscores of the opcode's
  // name (`_` has no other case): a case-blind search at every byte was
  // most of the scan in overwrittenBeforeRead.
  StringRef Name = TI.instrInfo().getName(I.facts().Opcode);
  for (size_t At = Name.find('_'); At != StringRef::npos; At = Name.find('_', At + 1)) {
    StringRef Rest = Name.drop_front(At);
    if (Rest.starts_with_insensitive("_sdwa") || Rest.starts_with_insensitive("_dpp"))
      return true;
  }
  return false;
}

bool overwrittenBeforeRead(const Module &M, const RegisterUnits &RU, const Instruction &I,
                           MCRegister R) {
  BitVector Pending = RU.none();
  RU.set(Pending, R);
  BitVector Exec = RU.none();
  RU.set(Exec, RU.byName("EXEC"));
  auto End = I.parent()->instructions().end();
  for (auto It = std::next(I.getIterator()); It != End; ++It) {
    const Instruction &J = *It;
    if (J.kind() != InstKind::Machine || J.facts().has(IF_Call))
      return false;
    for (MCRegister U : J.facts().Uses)
      if (RU.any(Pending, U))
        return false;
    // A DPP or SDWA write may keep lanes of the old value; the opcode's
    // name is read only for a write of a pending register.
    if (any_of(J.facts().Defs, [&](MCRegister D) { return RU.any(Pending, D); }) &&
        !isDppOrSdwa(M.target(), J))
      for (MCRegister D : J.facts().Defs)
        RU.reset(Pending, D);
    if (Pending.none())
      return true;
    for (MCRegister D : J.facts().Defs)
      if (RU.any(Exec, D))
        return false;
  }
  return false;
}

Instruction &beforeDelayAlu(Instruction &Consumer) {
  BasicBlock &BB = *Consumer.parent();
  Instruction *Anchor = &Consumer;
  while (Anchor->getIterator() != BB.instructions().begin() &&
         HardwareModel::roleOf(std::prev(Anchor->getIterator())->mnemonic()) ==
             InstRole::DelayAlu)
    Anchor = &*std::prev(Anchor->getIterator());
  return *Anchor;
}

Error moduleError(const Module &M, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), M.fileName() + ": error: " + Message);
}

} // namespace stinkytofu

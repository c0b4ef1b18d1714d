//===- ToStinkyTofu.cpp - rocisa modules into StinkyTofu IR --------------===//
#include "rocisa-bridge/convert/ToStinkyTofu.h"
#include "rocisa-bridge/code/Branch.h"
#include "rocisa-bridge/code/Label.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace rocisa {

namespace {

struct Callable {
  std::string Name;  ///< the function's name
  std::string Label; ///< the label that starts it
};

/// Prints a tree and remembers which object wrote each line.
class TreePrinter {
public:
  Error print(const Module &M) { return walk(M, M.name.empty() ? "<top>" : M.name); }
  void appendText(const std::string &T, const Item *Leaf, const std::string &Where);

  std::string Text;
  /// Per line (0-based): the object that wrote it, and its description.
  std::vector<std::pair<const Item *, std::string>> Lines{{nullptr, ""}};
  std::vector<size_t> LineStarts{0};
  /// The 1-based line each instruction starts on.
  DenseMap<unsigned, const Instruction *> InstructionAt;
  std::vector<Callable> Callables;

private:
  Error walk(const Module &M, const std::string &Path);
};

void TreePrinter::appendText(const std::string &T, const Item *Leaf, const std::string &Where) {
  if (auto *I = dynamic_cast<const Instruction *>(Leaf); I && !Text.empty() && Text.back() == '\n')
    InstructionAt[unsigned(Lines.size())] = I;
  for (char C : T) {
    Text.push_back(C);
    if (Lines.back().first == nullptr)
      Lines.back() = {Leaf, Where};
    if (C == '\n') {
      Lines.emplace_back(nullptr, "");
      LineStarts.push_back(Text.size());
    }
  }
}

Error TreePrinter::walk(const Module &M, const std::string &Path) {
  for (const ItemPtr &I : M.itemList) {
    if (const auto *Sub = dynamic_cast<const Module *>(I.get())) {
      std::string SubPath = Path + "/" + Sub->name;
      if (Sub->isCallable) {
        const auto *First = Sub->itemList.empty()
                                ? nullptr
                                : dynamic_cast<const Label *>(Sub->itemList.front().get());
        if (!First)
          return createStringError(inconvertibleErrorCode(),
                                   "callable module '" + SubPath +
                                       "' does not start with a Label");
        Callables.push_back({Sub->callableName.empty() ? Sub->name : Sub->callableName,
                             First->getLabelName()});
      }
      if (Error E = walk(*Sub, SubPath))
        return E;
      continue;
    }
    appendText(I->toString(), I.get(), "rocisa " + I->className() + " in module '" + Path + "'");
  }
  return Error::success();
}

Error splitCallables(stinkytofu::Module &M, const std::vector<Callable> &Callables) {
  for (const Callable &C : Callables) {
    stinkytofu::BasicBlock *Start = nullptr;
    for (stinkytofu::Function &F : M.functions())
      if ((Start = F.findBlock(C.Label)))
        break;
    if (!Start)
      return createStringError(inconvertibleErrorCode(),
                               "callable function '" + C.Name + "': its label '" + C.Label +
                                   "' starts no block");
    stinkytofu::Function &F = *Start->parent();
    if (Start == &F.blocks().front())
      return createStringError(inconvertibleErrorCode(),
                               "callable function '" + C.Name +
                                   "' starts the code: no code can call it");
    M.splitFunction(F, *Start, C.Name);
  }
  return Error::success();
}

Error stampMetadata(stinkytofu::Module &M, const DenseMap<unsigned, const Instruction *> &At,
                    const ConversionOptions &Options) {
  for (stinkytofu::Function &F : M.functions())
    for (stinkytofu::BasicBlock &BB : F.blocks())
      for (stinkytofu::Instruction &I : BB.instructions()) {
        auto It = At.find(I.location().Line);
        if (It == At.end())
          continue;
        const Instruction *R = It->second;
        if (const auto *Call = dynamic_cast<const SSwapPCB64 *>(R)) {
          if (!stinkytofu::isCall(I))
            return createStringError(inconvertibleErrorCode(),
                                     "rocisa SSwapPCB64 at line " + Twine(I.location().Line) +
                                         " is not a call for the target");
          if (!Call->calleeFuncs.empty())
            I.setModifier(std::make_unique<stinkytofu::CallTargetData>(Call->calleeFuncs));
        } else if (const auto *SetPC = dynamic_cast<const SSetPCB64 *>(R)) {
          if (!SetPC->longBranchLabel.empty())
            I.setModifier(std::make_unique<stinkytofu::LabelData>(SetPC->longBranchLabel));
        } else if (const auto *Branch = dynamic_cast<const BranchInstruction *>(R)) {
          if (Branch->instStr == "s_add_pc_i64" || Options.LabelShortBranches)
            I.setModifier(std::make_unique<stinkytofu::LabelData>(Branch->targetLabel()));
        }
      }
  return Error::success();
}

} // namespace

Expected<std::unique_ptr<StinkyModule>> toStinkyTofuModule(const Module &M, StringRef Arch,
                                                           StringRef Name,
                                                           const ConversionOptions &Options) {
  TreePrinter P;
  P.appendText(Options.Prologue, nullptr, "");
  if (Error E = P.print(M))
    return std::move(E);
  P.appendText(Options.Epilogue, nullptr, "");

  StringSet<> Names;
  for (const Callable &C : P.Callables)
    if (!Names.insert(C.Name).second)
      return createStringError(inconvertibleErrorCode(), "duplicate callable function '" +
                                                             C.Name + "': " +
                                                             DuplicateCallableMessage);

  auto Map = [&P](unsigned Line, unsigned Column) -> std::optional<stinkytofu::OriginalLine> {
    if (Line == 0 || Line > P.Lines.size() || !P.Lines[Line - 1].first)
      return std::nullopt;
    size_t Begin = P.LineStarts[Line - 1];
    size_t End = Line < P.LineStarts.size() ? P.LineStarts[Line] : P.Text.size();
    return stinkytofu::OriginalLine{P.Lines[Line - 1].second, Line, Column,
                                    P.Text.substr(Begin, End - Begin)};
  };
  Expected<std::unique_ptr<StinkyModule>> SM =
      readStinkyModule(P.Text, Arch, Name.empty() ? StringRef(M.name) : Name, Map);
  if (!SM)
    return SM.takeError();
  stinkytofu::Module &Out = (*SM)->module();
  if (Error E = splitCallables(Out, P.Callables))
    return std::move(E);
  if (Error E = stampMetadata(Out, P.InstructionAt, Options))
    return std::move(E);
  for (stinkytofu::Function &F : Out.functions())
    stinkytofu::buildCFG(F);
  return SM;
}

Expected<std::unique_ptr<StinkyModule>> toStinkyTofuModule(const KernelBody &K, StringRef Arch,
                                                           ConversionOptions Options) {
  Options.Prologue = K.signature + Options.Prologue;
  return toStinkyTofuModule(*K.body, Arch, K.name, Options);
}

} // namespace rocisa

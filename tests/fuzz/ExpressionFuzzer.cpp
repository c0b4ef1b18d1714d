//===- ExpressionFuzzer.cpp - The reader's evaluator against MC's ---------===//
//
// mc/AbsoluteExpression.h evaluates the expressions the reader needs before
// or beside MC: repeat counts and `.set` values for the reading limits,
// register indices of operands. This target proves it agrees with MC's
// assembler parser on every candidate expression of every input: the whole
// line, the value of a `.set x, E` or `x = E`, the inside of `[...]`.
//
// - Where the evaluator gives a value, MC assembling `.set __value, E`
//   (after the same fixed symbols) gives that symbol the same absolute value
//   and reports no error.
// - MC is given the text whenever the reading limits (mc/InputLimits.h)
//   accept it, as in the reader, so MC dying on what the limits let through
//   (a division of -2^63 by -1) is a finding too.
//
//===----------------------------------------------------------------------===//
#include "DifferentialSupport.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/mc/AbsoluteExpression.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/mc/InputLimits.h"
#include <string>
#include <vector>

using namespace llvm;
using namespace stinkytofu;

namespace {

/// The symbols every expression may name, as MC is given them and as the
/// evaluator looks them up.
constexpr std::pair<const char *, int64_t> Symbols[] = {
    {"vgprValuC", 8}, {"neg", -3}, {"m", INT64_MIN}, {"big", INT64_MAX}};

std::optional<int64_t> lookup(StringRef Name) {
  for (auto [Symbol, Value] : Symbols)
    if (Name == Symbol)
      return Value;
  return std::nullopt;
}

std::string prelude() {
  return ".set vgprValuC, 8\n.set neg, -3\n.set m, -9223372036854775807-1\n"
         ".set big, 0x7fffffffffffffff\n";
}

/// What the input offers as expressions: each line, the value of an
/// assignment, the inside of brackets.
std::vector<StringRef> candidates(StringRef Input) {
  std::vector<StringRef> Out;
  while (!Input.empty() && Out.size() < 24) {
    auto [Line, Rest] = Input.split('\n');
    Input = Rest;
    Out.push_back(Line);
    StringRef Code = Line.trim();
    if (Code.starts_with_insensitive(".set ") && Code.contains(','))
      Out.push_back(Code.split(',').second);
    else if (size_t Eq = Code.find('='); Eq != StringRef::npos && !Code.drop_front(Eq + 1).starts_with("="))
      Out.push_back(Code.drop_front(Eq + 1));
    for (size_t Open = Line.find('['); Open != StringRef::npos;
         Open = Line.find('[', Open + 1)) {
      size_t Close = Line.find(']', Open);
      if (Close == StringRef::npos)
        break;
      StringRef Inside = Line.slice(Open + 1, Close);
      Out.push_back(Inside.split(':').first);
      if (Inside.contains(':'))
        Out.push_back(Inside.split(':').second);
    }
  }
  return Out;
}

void checkExpression(const std::shared_ptr<const TargetInfo> &TI, StringRef Text) {
  ExpressionValue Ours = evaluateAbsolute(Text, TI->asmInfo(), lookup);
  std::string Source = prelude() + ".set __value, " + Text.str() + "\n";
  InputLimits Limits = fuzz::limits();
  if (checkInputLimits(Source, Limits, TI->asmInfo()))
    return; // the reader stops here; MC never sees it
  fuzz::check(!Ours.DividesOverflow,
              "the limits let through an expression that divides -2^63 by -1");
  AssemblerState AS(TI, Limits);
  std::vector<AsmDiagnostic> Diags;
  AssembledFile File =
      AS.assembleFile(MemoryBuffer::getMemBufferCopy(Source, "expression.s"), Diags);
  if (!Ours.Value)
    return;
  bool Errors = any_of(Diags, [](const AsmDiagnostic &D) {
    return D.Diag.getKind() == SourceMgr::DK_Error;
  });
  std::optional<int64_t> Theirs;
  bool Assigned = false;
  for (const SymbolAssignment &A : File.Assignments)
    if (A.Symbol == "__value") {
      Assigned = true;
      Theirs = A.Value;
    }
  if (Errors || !Assigned || Theirs != Ours.Value)
    std::fprintf(stderr, "expression '%s': ours %lld, MC %s%s\n", Text.str().c_str(),
                 (long long)*Ours.Value,
                 Theirs ? std::to_string(*Theirs).c_str() : "no value",
                 Errors ? " (with an error)" : "");
  fuzz::check(!Errors && Assigned && Theirs == Ours.Value,
              "the evaluator gives a value MC does not give");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (std::optional<StringRef> Input = fuzz::textInput(Data, Size))
    for (StringRef Text : candidates(*Input))
      checkExpression(fuzz::differentialTarget(), Text);
  return 0;
}

//===- UserMarkers.cpp - Named markers written in the assembly ------------===//
#include "asm-instrument/sqtt/UserMarkers.h"
#include "asm-instrument/funcmap/FuncMap.h"
#include "asm-instrument/sqtt/MarkerEncoding.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu::sqtt {

std::vector<std::string> markerPseudoInstructions() {
  return {"sqtt_marker_enter", "sqtt_marker_exit", "sqtt_marker_point", "sqtt_marker_data"};
}

UserMarkerKind classifyUserMarker(const Instruction &I) {
  if (I.kind() != InstKind::Pseudo)
    return UserMarkerKind::None;
  StringRef M = I.mnemonic();
  if (M == "sqtt_marker_enter")
    return UserMarkerKind::Enter;
  if (M == "sqtt_marker_exit")
    return UserMarkerKind::Exit;
  if (M == "sqtt_marker_point")
    return UserMarkerKind::Point;
  if (M == "sqtt_marker_data")
    return UserMarkerKind::Data;
  return UserMarkerKind::None;
}

static Error errorAt(const Instruction &I, const Twine &Msg) {
  const Module *M = I.parent()->parent()->parent();
  return sourceError(M->fileName(), I.location().Line, I.location().Column,
                     I.sourceText().rtrim("\r\n"), Msg);
}

/// The name in a string operand: `"name"` with C escapes.
static Expected<std::string> markerName(const Instruction &I) {
  if (I.numOperands() == 0)
    return errorAt(I, "'" + I.mnemonic() + "' needs a marker name in double quotes");
  StringRef S = I.operand(0).spelling().trim();
  // A bare word is a name too: `.stir` writes quoted operands bare in the
  // assembly it hands the reader ("st.sqtt_marker_enter"("loop")).
  auto IsWordChar = [](char C) { return isAlnum(C) || C == '_' || C == '.' || C == '$'; };
  if (!S.empty() && S.front() != '"' && llvm::all_of(S, IsWordChar)) {
    if (std::optional<std::string> Bad = funcmap::checkName(S))
      return errorAt(I, "'" + I.mnemonic() + "': bad marker name: " + *Bad);
    return S.str();
  }
  if (S.size() < 2 || S.front() != '"' || S.back() != '"')
    return errorAt(I, "'" + I.mnemonic() + "': the marker name must be a string in "
                                            "double quotes, not '" + S + "'");
  std::string Name;
  S = S.drop_front().drop_back();
  for (size_t K = 0; K < S.size(); ++K) {
    if (S[K] == '\\' && K + 1 < S.size()) {
      char C = S[++K];
      Name += C == 'n' ? '\n' : C == 't' ? '\t' : C;
      continue;
    }
    Name += S[K];
  }
  if (std::optional<std::string> Bad = funcmap::checkName(Name))
    return errorAt(I, "'" + I.mnemonic() + "': bad marker name: " + *Bad);
  return Name;
}

/// The payload of sqtt_marker_data: an SGPR or an integer.
static Expected<BuildOperand> payloadOperand(const Instruction &I) {
  if (I.numOperands() != 2)
    return errorAt(I, "'sqtt_marker_data' takes a name and a value: "
                      "sqtt_marker_data \"name\", s5");
  const Operand &Op = I.operand(1);
  bool Sgpr = Op.isRegister() && Op.regFile() == RegFile::SGPR && Op.regCount() == 1 &&
              Op.firstReg();
  if (!Sgpr && !Op.isImmediate())
    return errorAt(I, "'sqtt_marker_data': the value must be one SGPR or an integer, not '" +
                          Op.spelling() + "'");
  return BuildOperand::copyOf(Op);
}

Expected<std::vector<MarkerSite>> userMarkerSites(Function &F, MarkerIdAllocator &Ids) {
  std::vector<MarkerSite> Sites;
  for (BasicBlock &BB : F.blocks()) {
    auto Insts = BB.instructions();
    for (auto It = Insts.begin(); It != Insts.end(); ++It) {
      Instruction &I = *It;
      UserMarkerKind K = classifyUserMarker(I);
      if (K == UserMarkerKind::None)
        continue;
      MarkerSite S;
      S.Kind = SiteKind::User;
      S.Rank = SiteRank::User;
      S.Point = InsertPoint::before(I);
      S.Origin = &I;
      if (K == UserMarkerKind::Exit) {
        if (I.numOperands() > 1)
          return errorAt(I, "'sqtt_marker_exit' takes at most a marker name in double quotes");
        if (I.numOperands() == 1)
          if (Expected<std::string> Name = markerName(I); !Name)
            return Name.takeError();
        auto Next = std::next(It);
        if (Next != Insts.end() && classifyUserMarker(*Next) == UserMarkerKind::Enter) {
          // exit + enter back to back: (B << 2) | 3.
          Expected<std::string> Name = markerName(*Next);
          if (!Name)
            return Name.takeError();
          S.Source = MarkerSite::IdSource::Ledger;
          S.Handle = Ids.addUserMarker(LedgerKind::UserScope, *Name, 0);
          S.Flags = FlagEnter | FlagExitPrev;
          S.What = "sqtt_marker_exit + sqtt_marker_enter \"" + *Name + "\"";
          Sites.push_back(S);
          It = Next;
          continue;
        }
        S.Source = MarkerSite::IdSource::None;
        S.Flags = FlagExitPrev;
        S.What = "sqtt_marker_exit";
        Sites.push_back(S);
        continue;
      }
      Expected<std::string> Name = markerName(I);
      if (!Name)
        return Name.takeError();
      S.Source = MarkerSite::IdSource::Ledger;
      switch (K) {
      case UserMarkerKind::Enter:
        S.Handle = Ids.addUserMarker(LedgerKind::UserScope, *Name, 0);
        S.Flags = FlagEnter;
        break;
      case UserMarkerKind::Point:
        S.Handle = Ids.addUserMarker(LedgerKind::UserPoint, *Name, 0);
        break;
      default: {
        Expected<BuildOperand> Payload = payloadOperand(I);
        if (!Payload)
          return Payload.takeError();
        S.Payload = *Payload;
        S.Handle = Ids.addUserMarker(LedgerKind::UserPoint, *Name, 1);
        break;
      }
      }
      S.What = I.mnemonic().str() + " \"" + *Name + "\"";
      Sites.push_back(S);
    }
  }
  return Sites;
}

void eraseUserMarkers(Function &F) {
  for (BasicBlock &BB : F.blocks())
    for (auto It = BB.instructions().begin(); It != BB.instructions().end();) {
      Instruction &I = *It++;
      if (classifyUserMarker(I) != UserMarkerKind::None)
        I.eraseFromParent(); // its comments go to what follows it
    }
}

} // namespace stinkytofu::sqtt

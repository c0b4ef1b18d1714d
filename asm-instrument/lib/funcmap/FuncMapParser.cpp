//===- FuncMapParser.cpp - Read .sqtt_funcmap text ------------------------===//
#include "asm-instrument/funcmap/FuncMapParser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include <tuple>

using namespace llvm;

namespace stinkytofu::funcmap {

char FuncMapParseError::ID = 0;

void FuncMapParseError::log(raw_ostream &OS) const { OS << "line " << Line << ": " << Message; }

std::error_code FuncMapParseError::convertToErrorCode() const { return inconvertibleErrorCode(); }

namespace {

/// A decimal u32 with no sign, blanks or leading '+'.
std::optional<uint32_t> parseU32(StringRef S) {
  if (S.empty() || S.size() > 10 || !llvm::all_of(S, isDigit))
    return std::nullopt;
  uint64_t V = 0;
  for (char C : S)
    V = V * 10 + uint64_t(C - '0');
  if (V > UINT32_MAX)
    return std::nullopt;
  return uint32_t(V);
}

/// `key=value;key=value`: the pairs in order; std::nullopt when a part has no '='.
std::optional<SmallVector<std::pair<StringRef, StringRef>, 2>> splitAttributes(StringRef S) {
  SmallVector<StringRef, 2> Parts;
  S.split(Parts, ';');
  SmallVector<std::pair<StringRef, StringRef>, 2> Out;
  for (StringRef P : Parts) {
    if (P.find('=') == StringRef::npos)
      return std::nullopt;
    Out.push_back(P.split('='));
  }
  return Out;
}

class Parser {
public:
  Parser(ParseMode Mode, std::vector<FuncMapWarning> *Warnings)
      : Strict(Mode == ParseMode::Strict), Warnings(Warnings) {}

  Expected<FuncMap> run(StringRef Text);

private:
  bool Strict;
  std::vector<FuncMapWarning> *Warnings;
  FuncMap Map;
  unsigned Line = 0;
  DenseMap<uint32_t, unsigned> IdLine;   ///< Line of the row that defined each id.
  DenseMap<uint32_t, unsigned> RLine;    ///< Strict: line of each id's R: row.
  StringSet<> Kernels;
  std::optional<unsigned> WaveLine, EncodingLine;
  /// Lenient: R: rows (id, count, line), applied after the last row.
  std::vector<std::tuple<uint32_t, uint32_t, unsigned>> PendingPayloads;

  void warn(unsigned At, const Twine &Msg) {
    if (Warnings)
      Warnings->push_back({At, Msg.str()});
  }
  /// A row that cannot be used: an error in strict mode, skipped with a
  /// warning in lenient mode (the caller returns at once either way).
  Error reject(const Twine &Msg) {
    if (Strict)
      return make_error<FuncMapParseError>(Line, Msg.str());
    warn(Line, Msg + " (row skipped)");
    return Error::success();
  }
  /// Something strict mode refuses but lenient mode works around.
  /// \p Problem is an error in strict mode; otherwise a warning that says
  /// what the lenient parse does about it (\p Resolution).
  Error tolerate(const Twine &Problem, const Twine &Resolution) {
    if (Strict)
      return make_error<FuncMapParseError>(Line, Problem.str());
    warn(Line, Problem + "; " + Resolution);
    return Error::success();
  }

  Error parseRow(StringRef Row);
  Error parseMarker(char Prefix, StringRef Payload);
  Error parseWave(StringRef Payload);
  Error parseEncoding(StringRef Payload);
  Error parsePayload(StringRef Payload);
  Error finish();
};

Expected<FuncMap> Parser::run(StringRef Text) {
  Text = Text.rtrim('\0');
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Strict ? Text.find('\n', Pos) : Text.find_first_of(StringRef("\n\0", 2), Pos);
    if (End == StringRef::npos)
      End = Text.size();
    StringRef Row = Text.slice(Pos, End);
    Pos = End + 1;
    ++Line;
    if (Strict) {
      if (Row.find('\0') != StringRef::npos)
        return make_error<FuncMapParseError>(Line, "NUL byte inside the funcmap text");
      if (!Row.empty() && Row.rtrim(" \t\r") != Row)
        return make_error<FuncMapParseError>(Line, "trailing blank or carriage return");
    } else {
      Row = Row.rtrim(StringRef(" \t\r\0", 4));
    }
    if (Row.empty())
      continue;
    if (Error E = parseRow(Row))
      return std::move(E);
  }
  if (Error E = finish())
    return std::move(E);
  return std::move(Map);
}

Error Parser::parseRow(StringRef Row) {
  if (Row.size() < 2 || Row[1] != ':')
    return reject("malformed row '" + Row + "': expected one of F: K: U: P: W: R: M:");
  StringRef Payload = Row.drop_front(2);
  switch (Row[0]) {
  case 'F':
  case 'K':
  case 'U':
  case 'P':
    return parseMarker(Row[0], Payload);
  case 'W':
    return parseWave(Payload);
  case 'M':
    return parseEncoding(Payload);
  case 'R':
    return parsePayload(Payload);
  default:
    return reject("unknown row type '" + Twine(Row[0]) + ":' in '" + Row + "'");
  }
}

Error Parser::parseMarker(char Prefix, StringRef Payload) {
  Marker M;
  M.Kind = Prefix == 'F'   ? MarkerKind::Function
           : Prefix == 'K' ? MarkerKind::Kernel
           : Prefix == 'U' ? MarkerKind::UserScope
                           : MarkerKind::Point;
  StringRef NameLoc = Payload;
  if (M.hasId()) {
    size_t Colon = Payload.find(':');
    if (Colon == StringRef::npos)
      return reject(Twine(Prefix) + ": row '" + Payload + "' has no ':' after the id");
    StringRef IdText = Payload.take_front(Colon);
    std::optional<uint32_t> Id = parseU32(IdText);
    if (!Id)
      return reject(Twine(Prefix) + ": row has a bad id '" + IdText + "'");
    if (auto Msg = checkId(*Id))
      return reject(Twine(Prefix) + ": row: " + *Msg);
    M.Id = *Id;
    NameLoc = Payload.drop_front(Colon + 1);
  }
  size_t At = NameLoc.find('@');
  M.Name = NameLoc.take_front(At).str();
  bool HasLoc = At != StringRef::npos;
  if (HasLoc)
    M.SourceLoc = NameLoc.drop_front(At + 1).str();
  if (M.Kind == MarkerKind::Point)
    M.Group = classifyPointName(M.Name);

  if (Strict) {
    if (HasLoc && M.Kind == MarkerKind::UserScope)
      return reject("U: rows take no source location");
    if (auto Msg = checkName(M.Name))
      return reject(Twine(Prefix) + ": row: " + *Msg);
    if (HasLoc)
      if (auto Msg = checkSourceLoc(M.SourceLoc))
        return reject(Twine(Prefix) + ": row: " + *Msg);
  } else if (M.Name.empty()) {
    return reject(Twine(Prefix) + ": row with an empty name");
  }

  if (!M.hasId()) {
    if (!Kernels.insert(M.Name).second) {
      if (Error E = tolerate("duplicate K: row for '" + M.Name + "'", "the first row wins"))
        return E;
      return Error::success();
    }
    Map.add(std::move(M));
    return Error::success();
  }
  if (auto It = IdLine.find(M.Id); It != IdLine.end()) {
    if (Error E = tolerate("duplicate id " + Twine(M.Id) + " (first defined on line " +
                               Twine(It->second) + ")",
                           "the last row wins"))
      return E;
    Map.remove(M.Id);
  }
  IdLine[M.Id] = Line;
  Map.add(std::move(M));
  return Error::success();
}

Error Parser::parseWave(StringRef Payload) {
  std::optional<uint32_t> Wave = parseU32(Payload);
  if (!Wave)
    return reject("W: row has a bad wave size '" + Payload + "'");
  if (auto Msg = checkWaveSize(*Wave))
    return reject("W: row: " + *Msg);
  if (WaveLine)
    if (Error E = tolerate("second W: row (first on line " + Twine(*WaveLine) + ")",
                           "the last one wins"))
      return E;
  WaveLine = Line;
  Map.setWaveSize(*Wave);
  return Error::success();
}

Error Parser::parseEncoding(StringRef Payload) {
  auto Attrs = splitAttributes(Payload);
  if (!Attrs)
    return reject("M: row '" + Payload + "' is not key=value;key=value");
  std::optional<uint32_t> Bits, Shift;
  for (auto [Key, Value] : *Attrs) {
    std::optional<uint32_t> *Slot = Key == "shader_clock_bits"    ? &Bits
                                    : Key == "shader_clock_shift" ? &Shift
                                                                  : nullptr;
    if (!Slot) {
      if (Error E = tolerate("M: row has an unknown key '" + Key + "'", "ignored"))
        return E;
      continue;
    }
    if (Strict && *Slot)
      return reject("M: row repeats '" + Key + "'");
    *Slot = parseU32(Value);
    if (!*Slot)
      return reject("M: row has a bad value for '" + Key + "': '" + Value + "'");
  }
  if (!Bits)
    return reject("M: row without shader_clock_bits");
  if (!Strict && *Bits == 0) {
    warn(Line, "M: row with shader_clock_bits=0 (no packing)");
    Map.clearMarkerEncoding();
    EncodingLine = Line;
    return Error::success();
  }
  if (!Shift)
    return reject("M: row without shader_clock_shift");
  MarkerEncoding Enc{*Bits, *Shift};
  if (auto Msg = checkEncoding(Enc))
    return reject("M: row: " + *Msg);
  if (EncodingLine)
    if (Error E = tolerate("second M: row (first on line " + Twine(*EncodingLine) + ")",
                           "the last one wins"))
      return E;
  EncodingLine = Line;
  Map.setMarkerEncoding(Enc);
  return Error::success();
}

Error Parser::parsePayload(StringRef Payload) {
  size_t Colon = Payload.find(':');
  if (Colon == StringRef::npos)
    return reject("R: row '" + Payload + "' has no ':' after the id");
  StringRef IdText = Payload.take_front(Colon);
  std::optional<uint32_t> Id = parseU32(IdText);
  if (!Id)
    return reject("R: row has a bad id '" + IdText + "'");
  auto Attrs = splitAttributes(Payload.drop_front(Colon + 1));
  if (!Attrs)
    return reject("R: row '" + Payload + "' is not <id>:extra_payload_count=<N>");
  std::optional<uint32_t> Count;
  for (auto [Key, Value] : *Attrs) {
    if (Key != "extra_payload_count") {
      if (Error E = tolerate("R: row has an unknown key '" + Key + "'", "ignored"))
        return E;
      continue;
    }
    if (Strict && Count)
      return reject("R: row repeats 'extra_payload_count'");
    Count = parseU32(Value);
    if (!Count)
      return reject("R: row has a bad extra_payload_count '" + Value + "'");
  }
  if (!Count)
    return reject("R: row without extra_payload_count");
  if (!Strict) {
    PendingPayloads.emplace_back(*Id, *Count, Line);
    return Error::success();
  }
  if (!IdLine.count(*Id))
    return reject("R: row for id " + Twine(*Id) + ", which no earlier F:, U: or P: row defines");
  if (auto [It, New] = RLine.try_emplace(*Id, Line); !New)
    return reject("second R: row for id " + Twine(*Id) + " (first on line " +
                  Twine(It->second) + ")");
  Map.setExtraPayloadCount(*Id, *Count);
  return Error::success();
}

Error Parser::finish() {
  for (auto [Id, Count, At] : PendingPayloads)
    if (!Map.setExtraPayloadCount(Id, Count))
      warn(At, "R: row for unknown id " + Twine(Id) + " ignored");
  if (auto Enc = Map.markerEncoding()) {
    // Payload records need the unpacked header layout (spec: "Any marker
    // with R:extra_payload_count > 0 ... requires SQTT_SHADER_CLOCK_BITS=0").
    for (const Marker &M : Map.markers()) {
      if (!M.hasId() || M.ExtraPayloadCount == 0)
        continue;
      Line = Strict ? RLine.lookup(M.Id) : IdLine.lookup(M.Id);
      std::string Msg = ("id " + Twine(M.Id) + " has payload records (R:), which an M: row (line " +
                         Twine(*EncodingLine) + ") excludes")
                            .str();
      if (Strict)
        return make_error<FuncMapParseError>(Line, Msg);
      warn(Line, Msg);
    }
    uint32_t Bits = Enc->markerIdBits();
    for (const Marker &M : Map.markers()) {
      if (!M.hasId() || !checkId(M.Id, Bits))
        continue;
      Line = IdLine.lookup(M.Id);
      std::string Msg = ("id " + Twine(M.Id) + " does not fit in the " + Twine(Bits) +
                         " id bits the M: row (line " + Twine(*EncodingLine) + ") leaves")
                            .str();
      if (Strict)
        return make_error<FuncMapParseError>(Line, Msg);
      warn(Line, Msg);
    }
  }
  return Error::success();
}

} // namespace

Expected<FuncMap> parseFuncMap(StringRef Text, ParseMode Mode,
                               std::vector<FuncMapWarning> *Warnings) {
  return Parser(Mode, Warnings).run(Text);
}

} // namespace stinkytofu::funcmap

//===- FixtureScenario.cpp - A trace scenario for the fixture writer ------===//
#include "FixtureScenario.h"
#include "asm-instrument/trace/WaveInstructions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace fixture {

namespace {

class Parser {
public:
  Parser(StringRef File) : File(File) {}
  Expected<Scenario> run(StringRef Text);

private:
  Error fail(const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), File + ":" + Twine(Line) + ": " + Msg);
  }
  /// A number in decimal or 0x hex.
  Expected<uint64_t> number(StringRef S) {
    uint64_t N;
    if (S.getAsInteger(0, N))
      return fail("expected a number, got '" + S + "'");
    return N;
  }
  /// KEY=VALUE among \p Words.
  Expected<std::optional<uint64_t>> keyed(ArrayRef<StringRef> Words, StringRef Key) {
    for (StringRef W : Words)
      if (W.consume_front(Key) && W.consume_front("=")) {
        Expected<uint64_t> N = number(W);
        if (!N)
          return N.takeError();
        return std::optional<uint64_t>(*N);
      }
    return std::optional<uint64_t>();
  }
  Error event(ArrayRef<StringRef> Words, std::vector<Event> &Into);

  StringRef File;
  unsigned Line = 0;
  Scenario S;
  std::optional<uint32_t> LastCodeObject;
};

Error Parser::event(ArrayRef<StringRef> W, std::vector<Event> &Into) {
  Event E;
  Expected<uint64_t> T = number(W[0]);
  if (!T)
    return T.takeError();
  E.Time = *T;
  if (W.size() < 2)
    return fail("event without a kind");
  StringRef Kind = W[1];
  // A marker id, or @name resolved against the funcmap when writing.
  auto Id = [&](size_t I) -> Error {
    if (W.size() <= I)
      return fail("'" + Kind + "' needs a marker id");
    if (W[I].starts_with("@")) {
      E.IdName = W[I].drop_front().str();
      return Error::success();
    }
    Expected<uint64_t> N = number(W[I]);
    if (!N)
      return N.takeError();
    E.Id = uint32_t(*N);
    return Error::success();
  };
  auto Action = [&](StringRef A, size_t IdAt) -> Error {
    if (A == "exit") {
      E.Does = Event::Exit;
      return Error::success();
    }
    if (A == "enter")
      E.Does = Event::Enter;
    else if (A == "transition")
      E.Does = Event::Transition;
    else if (A == "point")
      E.Does = Event::Point;
    else
      return fail("unknown marker action '" + A + "'");
    return Id(IdAt);
  };
  if (Kind == "enter" || Kind == "exit" || Kind == "transition" || Kind == "point") {
    if (Error Err = Action(Kind, 2))
      return Err;
  } else if (Kind == "raw") {
    E.What = Event::Raw;
    if (W.size() < 3)
      return fail("raw needs a value");
    Expected<uint64_t> V = number(W[2]);
    if (!V)
      return V.takeError();
    E.Value = uint32_t(*V);
    for (StringRef F : W.drop_front(3)) {
      if (F == "imm")
        E.Flags |= 1;
      else if (F == "priv")
        E.Flags |= 2;
      else
        return fail("unknown record flag '" + F + "'");
    }
  } else if (Kind == "addr") {
    E.What = Event::Address;
    if (Error Err = Id(2))
      return Err;
    for (auto [Key, Into] : {std::pair<StringRef, uint64_t *>{"exec", &E.Exec},
                             {"base", &E.Base}, {"stride", &E.Stride}}) {
      Expected<std::optional<uint64_t>> V = keyed(W.drop_front(3), Key);
      if (!V)
        return V.takeError();
      if (!*V)
        return fail("addr needs " + Key + "=");
      *Into = **V;
    }
  } else if (Kind == "packed") {
    E.What = Event::Packed;
    if (W.size() < 3)
      return fail("packed needs an action");
    if (W[2] == "value") {
      // The legacy header word as the instrumented code writes it.
      if (W.size() < 4)
        return fail("packed value needs a value");
      Expected<uint64_t> V = number(W[3]);
      if (!V)
        return V.takeError();
      E.Value = uint32_t(*V);
      E.Flags = PackedValueGiven;
    } else if (Error Err = Action(W[2], 3)) {
      return Err;
    }
    Expected<std::optional<uint64_t>> D = keyed(W.drop_front(3), "delay");
    if (!D)
      return D.takeError();
    E.Delay = D->value_or(0);
  } else if (Kind == "inst") {
    E.What = Event::Inst;
    if (W.size() < 3)
      return fail("inst needs an address");
    StringRef Addr = W[2];
    if (Addr.contains(':')) {
      auto [CO, A] = Addr.split(':');
      Expected<uint64_t> N = number(CO);
      if (!N)
        return N.takeError();
      E.InstCodeObject = uint32_t(*N);
      Addr = A;
    }
    Expected<uint64_t> A = number(Addr);
    if (!A)
      return A.takeError();
    E.InstAddress = *A;
    for (StringRef Word : W.drop_front(3)) {
      if (Word.consume_front("waits=")) {
        SmallVector<StringRef, 4> Addrs;
        Word.split(Addrs, ',');
        for (StringRef A : Addrs) {
          Expected<uint64_t> N = number(A);
          if (!N)
            return N.takeError();
          E.WaitsFor.push_back(*N);
        }
        continue;
      }
      if (!Word.contains('=')) {
        E.Category = categoryNumber(Word);
        if (E.Category < 0)
          return fail("unknown instruction category '" + Word + "'");
      }
    }
    Expected<std::optional<uint64_t>> St = keyed(W.drop_front(3), "stall"),
                                      Du = keyed(W.drop_front(3), "dur");
    if (!St)
      return St.takeError();
    if (!Du)
      return Du.takeError();
    E.Stall = St->value_or(0);
    E.Duration = Du->value_or(4);
  } else {
    return fail("unknown event '" + Kind + "'");
  }
  Into.push_back(E);
  return Error::success();
}

Expected<Scenario> Parser::run(StringRef Text) {
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  EventBlock *Repeat = nullptr;
  for (StringRef Raw : Lines) {
    ++Line;
    StringRef L = Raw.split('#').first.trim();
    if (L.empty())
      continue;
    SmallVector<StringRef, 8> W;
    L.split(W, ' ', -1, /*KeepEmpty=*/false);
    StringRef Cmd = W[0];
    auto Need = [&](size_t N) -> Error {
      return W.size() < N ? fail("'" + Cmd + "' needs " + Twine(N - 1) + " arguments")
                          : Error::success();
    };
    if (Cmd == "version") {
      if (Error E = Need(2))
        return std::move(E);
      S.Version = W[1].str();
    } else if (Cmd == "gfxip") {
      if (Error E = Need(2))
        return std::move(E);
      Expected<uint64_t> N = number(W[1]);
      if (!N)
        return N.takeError();
      S.GfxIp = unsigned(*N);
    } else if (Cmd == "clock") {
      if (Error E = Need(2))
        return std::move(E);
      double G;
      if (W[1] == "none")
        S.ClockGHz.reset();
      else if (W[1].getAsDouble(G) || G <= 0)
        return fail("bad clock rate '" + W[1] + "'");
      else
        S.ClockGHz = G;
    } else if (Cmd == "funcmap") {
      if (Error E = Need(2))
        return std::move(E);
      S.FuncMapInCodeObject = W[1] == "code-object" || W[1] == "both";
      S.FuncMapInCodeJson = W[1] == "code-json" || W[1] == "both";
      if (!S.FuncMapInCodeObject && !S.FuncMapInCodeJson)
        return fail("funcmap is code-object, code-json or both");
    } else if (Cmd == "records-per-file" || Cmd == "lose-records") {
      if (Error E = Need(2))
        return std::move(E);
      Expected<uint64_t> N = number(W[1]);
      if (!N)
        return N.takeError();
      (Cmd == "lose-records" ? S.LoseRecords : S.RecordsPerFile) = *N;
    } else if (Cmd == "codeobject") {
      if (Error E = Need(2))
        return std::move(E);
      Expected<uint64_t> N = number(W[1]);
      if (!N)
        return N.takeError();
      CodeObject &C = S.CodeObjects[uint32_t(*N)];
      if (W.size() == 4 && W[2] == "from")
        C.From = W[3].str();
      LastCodeObject = uint32_t(*N);
    } else if (Cmd == "map") {
      if (Error E = Need(2))
        return std::move(E);
      if (!LastCodeObject)
        return fail("'map' before 'codeobject'");
      S.CodeObjects[*LastCodeObject].Rows.push_back(L.drop_front(4).trim().str());
    } else if (Cmd == "code") {
      if (Error E = Need(4))
        return std::move(E);
      CodeLine C;
      Expected<uint64_t> CO = number(W[1]), A = number(W[2]);
      if (!CO)
        return CO.takeError();
      if (!A)
        return A.takeError();
      C.CodeObject = uint32_t(*CO);
      C.Address = *A;
      // The text is the rest of the line, spacing kept; ` @` starts the source.
      StringRef Text = L.drop_front(W[3].data() - L.data());
      auto [Isa, Source] = Text.rsplit(" @");
      if (Source.empty() || !Text.contains(" @"))
        Isa = Text;
      else
        C.Source = Source.str();
      C.Text = Isa.rtrim().str();
      S.Code.push_back(std::move(C));
    } else if (Cmd == "code-json") {
      if (Error E = Need(2))
        return std::move(E);
      if (!is_contained({"plain", "service", "pc-sampling", "dwarf"}, W[1]))
        return fail("code-json is plain, service, pc-sampling or dwarf");
      S.CodeJsonVariant = W[1].str();
    } else if (Cmd == "omit") {
      if (Error E = Need(2))
        return std::move(E);
      S.Omit.push_back(W[1].str());
    } else if (Cmd == "kernel") {
      if (Error E = Need(3))
        return std::move(E);
      Expected<uint64_t> N = number(W[1]);
      if (!N)
        return N.takeError();
      S.Kernels[uint32_t(*N)] = W[2].str();
    } else if (Cmd == "dispatch") {
      if (Error E = Need(2))
        return std::move(E);
      S.Dispatches.push_back({W[1].str(), {}});
    } else if (Cmd == "wave") {
      if (Error E = Need(5))
        return std::move(E);
      if (S.Dispatches.empty())
        S.Dispatches.push_back({"ui_output_agent_1_dispatch_1", {}});
      Wave Wv;
      uint32_t *Place[] = {&Wv.SE, &Wv.CU, &Wv.SIMD, &Wv.Slot};
      for (unsigned I = 0; I < 4; ++I) {
        Expected<uint64_t> N = number(W[I + 1]);
        if (!N)
          return N.takeError();
        *Place[I] = uint32_t(*N);
      }
      ArrayRef<StringRef> Rest = ArrayRef(W).drop_front(5);
      Expected<std::optional<uint64_t>> K = keyed(Rest, "kernel"), B = keyed(Rest, "begin"),
                                        En = keyed(Rest, "end"), G = keyed(Rest, "wg");
      for (auto *V : {&K, &B, &En, &G})
        if (!*V)
          return V->takeError();
      if (!*K || !*B || !*En)
        return fail("wave needs kernel=, begin= and end=");
      Wv.Kernel = uint32_t(**K);
      Wv.Begin = **B;
      Wv.End = **En;
      Wv.WorkGroup = int64_t(G->value_or(0));
      Wv.Hidden = llvm::is_contained(Rest, "hidden");
      S.Dispatches.back().Waves.push_back(std::move(Wv));
      Repeat = nullptr;
    } else if (Cmd == "repeat" || Cmd == "end") {
      if (S.Dispatches.empty() || S.Dispatches.back().Waves.empty())
        return fail("'" + Cmd + "' outside a wave");
      Wave &Wv = S.Dispatches.back().Waves.back();
      if (Cmd == "end") {
        if (!Repeat)
          return fail("'end' without 'repeat'");
        Repeat = nullptr;
        continue;
      }
      if (Error E = Need(3))
        return std::move(E);
      Expected<uint64_t> N = number(W[1]), P = number(W[2]);
      if (!N)
        return N.takeError();
      if (!P)
        return P.takeError();
      Wv.Blocks.push_back({*N, *P, {}});
      Repeat = &Wv.Blocks.back();
    } else if (isDigit(Cmd[0])) {
      if (S.Dispatches.empty() || S.Dispatches.back().Waves.empty())
        return fail("event outside a wave");
      Wave &Wv = S.Dispatches.back().Waves.back();
      if (!Repeat && (Wv.Blocks.empty() || Wv.Blocks.back().Count != 1))
        Wv.Blocks.push_back({});
      std::vector<Event> &Into = Repeat ? Repeat->Events : Wv.Blocks.back().Events;
      if (Error E = event(W, Into))
        return std::move(E);
    } else {
      return fail("unknown directive '" + Cmd + "'");
    }
  }
  if (Repeat)
    return fail("'repeat' without 'end'");
  if (S.Dispatches.empty())
    S.Dispatches.push_back({"ui_output_agent_1_dispatch_1", {}});
  return std::move(S);
}

} // namespace

Expected<Scenario> parseScenario(StringRef File, StringRef Text) { return Parser(File).run(Text); }

bool Scenario::omits(StringRef Name) const { return is_contained(Omit, Name); }

int categoryNumber(StringRef Name) {
  for (uint8_t I = 0; stinkytofu::trace::categoryName(I) != "other"; ++I)
    if (Name.equals_insensitive(stinkytofu::trace::categoryName(I)))
      return int(I);
  return -1;
}

} // namespace fixture

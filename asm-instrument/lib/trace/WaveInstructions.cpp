//===- WaveInstructions.cpp - One wave file's instruction rows ------------===//
//
// A wave file grows with the wave's run time (millions of rows for a long
// kernel), so unlike the other ATT files it is not loaded whole for
// simdjson: a small JSON scanner reads it in fixed chunks, pulls `begin`,
// `end` and the rows of `wave.instructions`, and skips every other value.
// Memory is the chunk, whatever the length of the trace.
//
//===----------------------------------------------------------------------===//
#include "asm-instrument/trace/WaveInstructions.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include <string>

using namespace llvm;

namespace stinkytofu::trace {

StringRef categoryName(uint8_t Category) {
  static const char *const Names[] = {"none", "SMEM",  "SALU",    "VMEM",    "FLAT",
                                      "LDS",  "VALU",  "JUMP",    "NEXT",    "IMMED",
                                      "CONTEXT", "MESSAGE", "BVH"};
  return Category < std::size(Names) ? Names[Category] : "other";
}

namespace {

/// Thrown inside the scanner; read() turns it into "FILE: reason".
struct ScanError {
  std::string Reason;
};

class ChunkScanner {
public:
  explicit ChunkScanner(sys::fs::file_t File) : File(File) {}

  /// The next byte without consuming it; -1 at the end of the file.
  int peek() {
    if (Pos == Len && !refill())
      return -1;
    return (unsigned char)Buffer[Pos];
  }
  int get() {
    int C = peek();
    if (C >= 0)
      ++Pos;
    return C;
  }
  void skipSpace() {
    for (;;) {
      int C = peek();
      if (C != ' ' && C != '\n' && C != '\r' && C != '\t')
        return;
      ++Pos;
    }
  }
  void expect(char C) {
    skipSpace();
    if (get() != C)
      fail(std::string("expected '") + C + "'");
  }
  /// Consumes \p C if it is next (after white space).
  bool accept(char C) {
    skipSpace();
    if (peek() != C)
      return false;
    ++Pos;
    return true;
  }
  uint64_t unsignedNumber() {
    skipSpace();
    int C = peek();
    if (C < '0' || C > '9')
      fail("expected an unsigned integer");
    uint64_t N = 0;
    while ((C = peek()) >= '0' && C <= '9') {
      N = N * 10 + uint64_t(C - '0');
      ++Pos;
    }
    if (C == '.' || C == 'e' || C == 'E')
      fail("expected an unsigned integer");
    return N;
  }
  std::string string() {
    expect('"');
    std::string S;
    for (;;) {
      int C = get();
      if (C < 0)
        fail("unterminated string");
      if (C == '"')
        return S;
      if (C == '\\') {
        C = get();
        if (C < 0)
          fail("unterminated string");
      }
      S += char(C);
    }
  }
  /// Skips one value of any kind.
  void skipValue(unsigned Depth = 0) {
    if (Depth > 256)
      fail("nesting too deep");
    skipSpace();
    int C = peek();
    if (C == '"') {
      string();
    } else if (C == '{' || C == '[') {
      ++Pos;
      char Close = C == '{' ? '}' : ']';
      if (accept(Close))
        return;
      do {
        if (Close == '}') {
          string();
          expect(':');
        }
        skipValue(Depth + 1);
      } while (accept(','));
      expect(Close);
    } else if (C == '-' || (C >= '0' && C <= '9')) {
      while ((C = peek()) == '-' || C == '+' || C == '.' || C == 'e' || C == 'E' ||
             (C >= '0' && C <= '9'))
        ++Pos;
    } else if (C == 't' || C == 'f' || C == 'n') {
      while ((C = peek()) >= 'a' && C <= 'z')
        ++Pos;
    } else {
      fail(C < 0 ? "unexpected end of file" : "unexpected character");
    }
  }
  [[noreturn]] void fail(const std::string &Why) {
    throw ScanError{"malformed JSON: " + Why + " at byte " + std::to_string(Consumed + Pos)};
  }

private:
  bool refill() {
    Consumed += Len;
    Pos = Len = 0;
    Expected<size_t> N =
        sys::fs::readNativeFile(File, MutableArrayRef<char>(Buffer, sizeof(Buffer)));
    if (!N)
      throw ScanError{toString(N.takeError())};
    Len = *N;
    return Len != 0;
  }

  sys::fs::file_t File;
  char Buffer[1 << 16];
  size_t Pos = 0, Len = 0;
  uint64_t Consumed = 0;
};

void readRows(ChunkScanner &S, WaveHeader &Span, function_ref<void(const WaveRow &)> Row) {
  S.expect('[');
  if (S.accept(']'))
    return;
  WaveRow R;
  do {
    S.expect('[');
    uint64_t C[5];
    unsigned N = 0;
    if (!S.accept(']')) {
      do {
        uint64_t V = S.unsignedNumber();
        if (N < 5)
          C[N] = V;
        ++N;
      } while (S.accept(','));
      S.expect(']');
    }
    if (N != 5)
      throw JsonFormatError("instruction row " + std::to_string(Span.Rows) + " has " +
                            std::to_string(N) + " columns, expected 5");
    R.Time = C[0];
    R.Category = uint8_t(C[1]);
    R.Stall = C[2];
    R.Duration = C[3];
    R.Line = uint32_t(C[4]);
    Row(R);
    ++Span.Rows;
  } while (S.accept(','));
  S.expect(']');
}

/// `[[line, [[dep, 0], ...]], ...]`.
void readWaits(ChunkScanner &S, WaitRowFn Wait) {
  S.expect('[');
  if (S.accept(']'))
    return;
  std::vector<uint32_t> Deps;
  do {
    S.expect('[');
    uint32_t Line = uint32_t(S.unsignedNumber());
    S.expect(',');
    S.expect('[');
    Deps.clear();
    if (!S.accept(']')) {
      do {
        S.expect('[');
        Deps.push_back(uint32_t(S.unsignedNumber()));
        while (S.accept(','))
          S.skipValue();
        S.expect(']');
      } while (S.accept(','));
      S.expect(']');
    }
    S.expect(']');
    Wait(Line, Deps);
  } while (S.accept(','));
  S.expect(']');
}

/// Calls \p Field with each key of the object that follows, positioned at
/// its value; \p Field consumes the value (or returns false to skip it).
template <typename FieldFn> void readObject(ChunkScanner &S, FieldFn Field) {
  S.expect('{');
  if (S.accept('}'))
    return;
  do {
    std::string Key = S.string();
    S.expect(':');
    if (!Field(Key))
      S.skipValue();
  } while (S.accept(','));
  S.expect('}');
}

} // namespace

Expected<WaveHeader> readWaveInstructions(StringRef Path, function_ref<void(const WaveRow &)> Row,
                                          WaitRowFn Wait) {
  Expected<sys::fs::file_t> File = openCaptureFile(Path);
  if (!File)
    return File.takeError();
  scope_exit Close([&] { sys::fs::closeFile(*File); });
  auto S = std::make_unique<ChunkScanner>(*File);
  WaveHeader Span;
  bool SawWave = false;
  try {
    readObject(*S, [&](const std::string &Key) {
      if (Key != "wave")
        return false;
      SawWave = true;
      readObject(*S, [&](const std::string &WaveKey) {
        if (WaveKey == "begin")
          Span.Begin = S->unsignedNumber();
        else if (WaveKey == "end")
          Span.End = S->unsignedNumber();
        else if (WaveKey == "instructions")
          readRows(*S, Span, Row);
        else if (WaveKey == "waitcnt" && Wait)
          readWaits(*S, Wait);
        else
          return false;
        return true;
      });
      return true;
    });
    S->skipSpace();
    if (S->peek() >= 0)
      S->fail("text after the document");
  } catch (const ScanError &E) {
    return fileError(Path, E.Reason);
  } catch (const JsonFormatError &E) {
    return fileError(Path, E.what());
  }
  if (!SawWave)
    return fileError(Path, "no \"wave\" object");
  return Span;
}

} // namespace stinkytofu::trace

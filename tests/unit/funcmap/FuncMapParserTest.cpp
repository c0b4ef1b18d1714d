//===- FuncMapParserTest.cpp - Strict and lenient funcmap reading ---------===//
//
// One parser, two modes (asm-instrument/funcmap/FuncMapParser.h): strict
// rejects the first malformed row with its line, lenient skips it with a
// warning and goes on, as the decoders (rocprof-trace-decoder funcmap.hpp)
// do.
//
//===----------------------------------------------------------------------===//
#include "asm-instrument/funcmap/FuncMapParser.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace stinkytofu::funcmap;
using llvm::StringRef;

namespace {

/// The line and message of a strict-mode failure ({0, ""} on success).
std::pair<unsigned, std::string> strictError(StringRef Text) {
  llvm::Expected<FuncMap> Map = parseFuncMap(Text, ParseMode::Strict);
  if (Map)
    return {0, ""};
  std::pair<unsigned, std::string> Out{~0u, ""};
  llvm::handleAllErrors(Map.takeError(), [&](const FuncMapParseError &E) {
    Out = {E.line(), E.reason()};
  });
  return Out;
}

/// The markers of \p Map in order, one "<row letter><id>:<name>[@<loc>]
/// [+<payload>]" each: what a parse produced, to compare whole.
std::vector<std::string> rows(const FuncMap &Map) {
  std::vector<std::string> Out;
  for (const Marker &M : Map.markers()) {
    std::string Row(1, "FKUP"[unsigned(M.Kind)]);
    if (M.hasId())
      Row += std::to_string(M.Id);
    Row += ":" + M.Name;
    if (!M.SourceLoc.empty())
      Row += "@" + M.SourceLoc;
    if (M.ExtraPayloadCount)
      Row += "+" + std::to_string(M.ExtraPayloadCount);
    Out.push_back(Row);
  }
  return Out;
}

/// The rows of a strict parse that must succeed.
std::vector<std::string> strictRows(StringRef Text) {
  llvm::Expected<FuncMap> Map = parseFuncMap(Text, ParseMode::Strict);
  if (!Map) {
    ADD_FAILURE() << llvm::toString(Map.takeError());
    return {};
  }
  return rows(*Map);
}

FuncMap lenient(StringRef Text, std::vector<FuncMapWarning> &Warnings) {
  return llvm::cantFail(parseFuncMap(Text, ParseMode::Lenient, &Warnings));
}

// The reference lit vector (sqtt-reference.md section 9, user-markers.hip).
const char ReferenceVector[] = "K:marker_kernel\nU:1:outer\nU:2:inner\nP:3:point\nP:4:data\n"
                               "R:4:extra_payload_count=1\n";

TEST(FuncMapParserTest, ReadsEveryRowType) {
  const char Text[] = "M:shader_clock_bits=12;shader_clock_shift=4\n"
                      "F:1:_Z4syncv@kernel.hip:42\n"
                      "K:_Z8kernelAi@kernel.hip:80\n"
                      "U:2:load_input\n"
                      "P:3:barrier\n"
                      "P:4:addr_trace_load@hip_runtime.h:264 -> kernel.hip:59\n"
                      "W:64\n";
  llvm::Expected<FuncMap> Map = parseFuncMap(Text, ParseMode::Strict);
  ASSERT_TRUE(bool(Map)) << llvm::toString(Map.takeError());
  ASSERT_EQ(Map->markers().size(), 5u);
  EXPECT_EQ(Map->waveSize(), 64u);
  ASSERT_TRUE(Map->markerEncoding().has_value());
  EXPECT_EQ(Map->markerEncoding()->ShaderClockBits, 12u);
  EXPECT_EQ(Map->markerEncoding()->ShaderClockShift, 4u);
  EXPECT_EQ(Map->markerEncoding()->markerIdBits(), 18u);

  const Marker *F = Map->find(1);
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->Kind, MarkerKind::Function);
  EXPECT_EQ(F->Name, "_Z4syncv");
  EXPECT_EQ(F->SourceLoc, "kernel.hip:42");
  const Marker &K = Map->markers()[1];
  EXPECT_EQ(K.Kind, MarkerKind::Kernel);
  EXPECT_FALSE(K.hasId());
  EXPECT_EQ(K.Name, "_Z8kernelAi");
  EXPECT_EQ(Map->find(2)->Kind, MarkerKind::UserScope);
  EXPECT_EQ(Map->find(3)->Group, PointGroup::System);
  EXPECT_EQ(Map->find(4)->Group, PointGroup::AddressTrace);
  EXPECT_EQ(Map->find(4)->SourceLoc, "hip_runtime.h:264 -> kernel.hip:59");
}

TEST(FuncMapParserTest, PayloadRowsFoldIntoTheirMarker) {
  llvm::Expected<FuncMap> Map = parseFuncMap(ReferenceVector, ParseMode::Strict);
  ASSERT_TRUE(bool(Map)) << llvm::toString(Map.takeError());
  EXPECT_EQ(Map->find(4)->ExtraPayloadCount, 1u);
  EXPECT_EQ(Map->find(3)->ExtraPayloadCount, 0u);
  EXPECT_EQ(Map->find(4)->Group, PointGroup::User);
}

TEST(FuncMapParserTest, SectionTerminatorAndBlankLinesAreFine) {
  std::string Text = std::string(ReferenceVector) + "\n";
  Text.append(3, '\0');
  EXPECT_EQ(strictRows(Text),
            (std::vector<std::string>{"K:marker_kernel", "U1:outer", "U2:inner", "P3:point",
                                      "P4:data+1"}));
  EXPECT_EQ(strictRows(""), std::vector<std::string>{});
  EXPECT_EQ(strictRows("K:k"), std::vector<std::string>{"K:k"}); // no final newline
}

TEST(FuncMapParserTest, StrictReportsTheLineOfTheFirstBadRow) {
  EXPECT_EQ(strictError("K:k\nU:1:a\nF:x:f\nZ:bad\n"),
            (std::pair<unsigned, std::string>{3, "F: row has a bad id 'x'"}));
  EXPECT_EQ(strictError("K:k\n\nQ\n").first, 3u);
  EXPECT_EQ(strictError("U:0:zero\n").second, "U: row: id 0 is reserved");
  EXPECT_EQ(strictError("P:1073741824:big\n").second, "P: row: id 1073741824 does not fit in 30 bits");
  EXPECT_EQ(strictError("F:4294967296:f\n").second, "F: row has a bad id '4294967296'");
  EXPECT_EQ(strictError("F:1\n").second, "F: row '1' has no ':' after the id");
  EXPECT_EQ(strictError("F:1:\n").second, "F: row: empty name");
  EXPECT_EQ(strictError("F:1:f@\n").second, "F: row: empty source location after '@'");
  EXPECT_EQ(strictError("F:1:f@a.cl:1 -> b.cl\n").second,
            "F: row: source location 'b.cl' is not file:line");
  EXPECT_EQ(strictError("U:1:a@x.cl:1\n").second, "U: rows take no source location");
  EXPECT_EQ(strictError("K:k\nK:k\n"),
            (std::pair<unsigned, std::string>{2, "duplicate K: row for 'k'"}));
  EXPECT_EQ(strictError("U:1:a\nP:1:b\n").first, 2u);
  EXPECT_EQ(strictError("W:32\nW:64\n").first, 2u);
  EXPECT_EQ(strictError("W:16\n").second, "W: row: wave size 16 is not 32 or 64");
  EXPECT_EQ(strictError("R:1:extra_payload_count=1\nP:1:d\n").first, 1u);
  EXPECT_EQ(strictError("P:1:d\nR:1:extra_payload_count=1\nR:1:extra_payload_count=2\n").first,
            3u);
  EXPECT_EQ(strictError("P:1:d\nR:1:count=1\n").second, "R: row has an unknown key 'count'");
  EXPECT_EQ(strictError("P:1:d\nR:1:extra_payload_count=-1\n").second,
            "R: row has a bad extra_payload_count '-1'");
  EXPECT_EQ(strictError("M:shader_clock_bits=30;shader_clock_shift=0\n").second,
            "M: row: shader_clock_bits=30 leaves no id bits");
  EXPECT_EQ(strictError("M:shader_clock_bits=12;shader_clock_shift=24\n").first, 1u);
  EXPECT_EQ(strictError("M:shader_clock_bits=0;shader_clock_shift=4\n").first, 1u);
  EXPECT_EQ(strictError("M:shader_clock_bits=12;shader_clock_shift=4;x=1\n").second,
            "M: row has an unknown key 'x'");
  EXPECT_EQ(strictError("K:k\r\n").second, "trailing blank or carriage return");
  EXPECT_EQ(strictError(StringRef("K:k\0\nU:1:a\n", 12)).second,
            "NUL byte inside the funcmap text");
  EXPECT_EQ(strictError("K:caf\xc3\xa9\n").second, "K: row: name has a non-printable or "
                                                   "non-ASCII byte 0xc3");
}

TEST(FuncMapParserTest, StrictChecksIdsAgainstTheClockLayout) {
  // 12 clock bits leave 18 id bits: 2^18 does not fit, on the marker's line.
  EXPECT_EQ(strictError("F:262144:f\nM:shader_clock_bits=12;shader_clock_shift=4\n"),
            (std::pair<unsigned, std::string>{
                1, "id 262144 does not fit in the 18 id bits the M: row (line 2) leaves"}));
  EXPECT_EQ(strictRows("M:shader_clock_bits=12;shader_clock_shift=4\nF:262143:f\n"),
            std::vector<std::string>{"F262143:f"});
  // Payload records and packed headers exclude each other.
  EXPECT_EQ(strictError("M:shader_clock_bits=12;shader_clock_shift=4\nP:1:d\n"
                        "R:1:extra_payload_count=1\n")
                .first,
            3u);
}

TEST(FuncMapParserTest, LenientSkipsBadRowsAndGoesOn) {
  std::vector<FuncMapWarning> W;
  FuncMap Map = lenient("K:k\nF:x:f\nU:1:a\nZ:bad\nnonsense\nP:2:p\n", W);
  EXPECT_EQ(Map.markers().size(), 3u);
  EXPECT_NE(Map.find(1), nullptr);
  EXPECT_NE(Map.find(2), nullptr);
  ASSERT_EQ(W.size(), 3u);
  EXPECT_EQ(W[0].Line, 2u);
  EXPECT_EQ(W[0].Message, "F: row has a bad id 'x' (row skipped)");
  EXPECT_EQ(W[1].Line, 4u);
  EXPECT_EQ(W[2].Line, 5u);
}

TEST(FuncMapParserTest, LenientDoesWhatDecodersDo) {
  std::vector<FuncMapWarning> W;
  // Trailing "\r \t" stripped, NUL ends a row, last writer wins on a
  // duplicate id, R: applies wherever it is, U: with '@' splits like F:.
  std::string Text = "R:3:extra_payload_count=5\r\nU:1:first \t\nU:1:second\n";
  Text += std::string("P:3:data\0P:4:other\n", 19);
  Text += "U:5:u@x.cl:1\nR:9:extra_payload_count=1\nW:48\n";
  FuncMap Map = lenient(Text, W);
  ASSERT_NE(Map.find(1), nullptr);
  EXPECT_EQ(Map.find(1)->Name, "second");
  EXPECT_EQ(Map.find(3)->ExtraPayloadCount, 5u);
  EXPECT_NE(Map.find(4), nullptr);
  EXPECT_EQ(Map.find(5)->Name, "u");
  EXPECT_EQ(Map.find(5)->SourceLoc, "x.cl:1");
  EXPECT_FALSE(Map.waveSize().has_value());
  std::vector<std::string> Messages;
  for (const FuncMapWarning &F : W)
    Messages.push_back(std::to_string(F.Line) + ": " + F.Message);
  EXPECT_EQ(Messages, (std::vector<std::string>{
                          "3: duplicate id 1 (first defined on line 2); the last row wins",
                          "8: W: row: wave size 48 is not 32 or 64 (row skipped)",
                          "7: R: row for unknown id 9 ignored",
                      }));
}

TEST(FuncMapParserTest, LenientNeverFails) {
  // Every row here is bad: it is skipped with warnings on line 1 (one per
  // bad field of an M: row), and no marker is made of it.
  const char *Inputs[] = {":", "F", "F:", "R:", "M:", "M:=;=", "W:", "\xff\xfe", "P:1:@", "K:@"};
  for (const char *In : Inputs) {
    std::vector<FuncMapWarning> W;
    llvm::Expected<FuncMap> Map = parseFuncMap(In, ParseMode::Lenient, &W);
    ASSERT_TRUE(bool(Map)) << In;
    EXPECT_EQ(rows(*Map), std::vector<std::string>{}) << In;
    ASSERT_FALSE(W.empty()) << In;
    for (const FuncMapWarning &Warning : W)
      EXPECT_EQ(Warning.Line, 1u) << In << ": " << Warning.Message;
  }
  std::vector<FuncMapWarning> W;
  EXPECT_EQ(rows(lenient("", W)), std::vector<std::string>{});
  EXPECT_TRUE(W.empty());
}

} // namespace

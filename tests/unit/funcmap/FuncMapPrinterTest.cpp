//===- FuncMapPrinterTest.cpp - Building and printing funcmaps ------------===//
//
// The builder API the instrumentation passes use, the spec's emission order
// (sqtt-reference.md section 4) and print -> parse -> print round trips.
//
//===----------------------------------------------------------------------===//
#include "asm-instrument/funcmap/FuncMapParser.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <string>

using namespace stinkytofu::funcmap;

namespace {

FuncMap parseStrict(llvm::StringRef Text) {
  llvm::Expected<FuncMap> Map = parseFuncMap(Text, ParseMode::Strict);
  EXPECT_TRUE(bool(Map)) << (Map ? "" : llvm::toString(Map.takeError()));
  return Map ? std::move(*Map) : FuncMap();
}

TEST(FuncMapPrinterTest, BuilderPrintsInEmissionOrder) {
  FuncMap Map;
  // Added in an order unlike the spec's: the printer sorts.
  Map.addAddressTracePoint(9, "addr_trace_load", "hip_runtime.h:264 -> kernel.hip:59", 130);
  Map.addSystemPoint(7, "barrier");
  Map.addUserScope(1, "load_input");
  Map.addKernel("_Z8kernelAi", "kernel.hip:80");
  Map.addFunction(4, "_Z12helper_funcv", "helper.hpp:17");
  Map.addUserPoint(2, "data", "", 1);
  Map.addFunction(3, "_Z4syncv", "kernel.hip:42");
  Map.addSystemPoint(8, "vmem_load");
  Map.setWaveSize(64);
  ASSERT_FALSE(bool(Map.verify()));
  EXPECT_EQ(printFuncMap(Map), "F:3:_Z4syncv@kernel.hip:42\n"
                               "F:4:_Z12helper_funcv@helper.hpp:17\n"
                               "K:_Z8kernelAi@kernel.hip:80\n"
                               "U:1:load_input\n"
                               "P:2:data\n"
                               "R:2:extra_payload_count=1\n"
                               "P:7:barrier\n"
                               "P:8:vmem_load\n"
                               "W:64\n"
                               "P:9:addr_trace_load@hip_runtime.h:264 -> kernel.hip:59\n"
                               "R:9:extra_payload_count=130\n");
}

TEST(FuncMapPrinterTest, EncodingRowComesFirstAndSectionEndsInNul) {
  FuncMap Map;
  Map.addKernel("k");
  Map.setMarkerEncoding({12, 4});
  EXPECT_EQ(printFuncMap(Map), "M:shader_clock_bits=12;shader_clock_shift=4\nK:k\n");
  EXPECT_EQ(funcMapSectionContents(Map),
            std::string("M:shader_clock_bits=12;shader_clock_shift=4\nK:k\n") + '\0');
  EXPECT_EQ(funcMapSectionContents(FuncMap()), std::string(1, '\0'));
}

TEST(FuncMapPrinterTest, WaveRowWithoutAddressTraces) {
  FuncMap Map;
  Map.setWaveSize(32);
  Map.addSystemPoint(1, "barrier");
  EXPECT_EQ(printFuncMap(Map), "P:1:barrier\nW:32\n");
}

TEST(FuncMapPrinterTest, ReferenceVectorRoundTrips) {
  const char Text[] = "K:marker_kernel\nU:1:outer\nU:2:inner\nP:3:point\nP:4:data\n"
                      "R:4:extra_payload_count=1\n";
  FuncMap Map = parseStrict(Text);
  EXPECT_EQ(printFuncMap(Map), Text);
}

TEST(FuncMapPrinterTest, PrintParsePrintIsAFixpoint) {
  // Not in emission order, with everything the grammar has.
  const char Text[] = "W:64\nP:10:addr_trace_store@a.cl:3 -> b.cl:9\nR:10:extra_payload_count=66\n"
                      "P:6:vmem_store\nU:5:scope\nK:kern@a.cl:1\nF:2:g@a.cl:2\nF:1:f\n"
                      "P:4:user point\nR:4:extra_payload_count=1\nK:other\n";
  FuncMap First = parseStrict(Text);
  std::string Printed = printFuncMap(First);
  EXPECT_EQ(Printed, "F:1:f\nF:2:g@a.cl:2\nK:kern@a.cl:1\nK:other\nU:5:scope\n"
                     "P:4:user point\nR:4:extra_payload_count=1\nP:6:vmem_store\n"
                     "W:64\nP:10:addr_trace_store@a.cl:3 -> b.cl:9\nR:10:extra_payload_count=66\n");
  FuncMap Second = parseStrict(Printed);
  EXPECT_TRUE(First == Second);
  EXPECT_EQ(printFuncMap(Second), Printed);
  // The lenient reading of canonical text is the same map, with no warnings.
  std::vector<FuncMapWarning> W;
  FuncMap Lenient = llvm::cantFail(parseFuncMap(Printed, ParseMode::Lenient, &W));
  EXPECT_TRUE(W.empty());
  EXPECT_TRUE(Lenient == First);
}

TEST(FuncMapPrinterTest, VerifyCatchesWhatStrictParsingWould) {
  auto Msg = [](const FuncMap &M) {
    llvm::Error E = M.verify();
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  FuncMap Dup;
  Dup.addFunction(1, "f");
  Dup.addUserScope(1, "u");
  EXPECT_EQ(Msg(Dup), "U:1:u: duplicate id (also F:1:f)");
  FuncMap BadName;
  BadName.addKernel("k@x");
  EXPECT_EQ(Msg(BadName), "K:k@x: '@' in a name (it starts the source location)");
  FuncMap Zero;
  Zero.addSystemPoint(0, "barrier");
  EXPECT_EQ(Msg(Zero), "P:0:barrier: id 0 is reserved");
  FuncMap Wave;
  Wave.setWaveSize(16);
  EXPECT_EQ(Msg(Wave), "W: row: wave size 16 is not 32 or 64");
  FuncMap Packed;
  Packed.setMarkerEncoding({12, 4});
  Packed.addFunction(1u << 18, "f");
  EXPECT_EQ(Msg(Packed), "F:262144:f: id 262144 does not fit in 18 bits left by the M: row");
  FuncMap PackedPayload;
  PackedPayload.setMarkerEncoding({12, 4});
  PackedPayload.addUserPoint(1, "d", "", 1);
  EXPECT_EQ(Msg(PackedPayload),
            "P:1:d: payload records (R:) need unpacked marker headers: no M: row");
  FuncMap UserLoc;
  UserLoc.addUserScope(1, "u").SourceLoc = "a.cl:1";
  EXPECT_EQ(Msg(UserLoc), "U:1:u: U: rows take no source location");
}

TEST(FuncMapPrinterTest, BuilderEditing) {
  FuncMap Map;
  Map.addUserPoint(3, "p");
  EXPECT_TRUE(Map.setExtraPayloadCount(3, 2));
  EXPECT_FALSE(Map.setExtraPayloadCount(4, 2));
  EXPECT_EQ(printFuncMap(Map), "P:3:p\nR:3:extra_payload_count=2\n");
  EXPECT_TRUE(Map.remove(3));
  EXPECT_FALSE(Map.remove(3));
  EXPECT_TRUE(Map.empty());
  EXPECT_EQ(classifyPointName("barrier_signal"), PointGroup::System);
  EXPECT_EQ(classifyPointName("addr_trace_lds_load"), PointGroup::AddressTrace);
  EXPECT_EQ(classifyPointName("my_point"), PointGroup::User);
}

} // namespace

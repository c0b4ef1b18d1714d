//===- SQTTConfigTest.cpp - SQTT settings from environment and arguments --===//
#include "asm-instrument/sqtt/SQTTConfig.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "llvm/Support/Error.h"
#include "gtest/gtest.h"
#include <map>

using namespace stinkytofu;
using namespace stinkytofu::sqtt;

namespace {

llvm::Expected<SQTTConfig> fromEnv(const std::map<std::string, std::string> &Env) {
  return SQTTConfig::fromEnvironment([&](llvm::StringRef Name) -> std::optional<std::string> {
    auto It = Env.find(Name.str());
    if (It == Env.end())
      return std::nullopt;
    return It->second;
  });
}

std::string errorOf(llvm::Error E) { return llvm::toString(std::move(E)); }

TEST(SQTTConfigTest, DefaultsAreTheSpecs) {
  auto C = fromEnv({});
  ASSERT_TRUE(bool(C));
  EXPECT_FALSE(C->functionsEnabled());
  EXPECT_FALSE(C->InstrumentBarriers);
  EXPECT_FALSE(C->memoryEnabled());
  EXPECT_EQ(C->Scope.Cu, 0x3u);
  EXPECT_TRUE(C->Scope.needsCheck()); // CU 0x3 is not the full mask
  EXPECT_FALSE(C->Scope.checksWave());
  EXPECT_EQ(C->ShaderClockBits, 0u);
  EXPECT_EQ(C->ShaderClockShift, 4u);
  EXPECT_EQ(C->MemBarrier, MemBarrierMode::Fence);
  // What the pass writes is proven unless the caller opts out.
  EXPECT_TRUE(C->Verify);
  ASSERT_FALSE(bool(C->applyArguments(parsePassArguments("verify=0"))));
  EXPECT_FALSE(C->Verify);
}

TEST(SQTTConfigTest, ReadsEveryVariable) {
  auto C = fromEnv({{"SQTT_INSTRUMENT_FUNCTIONS", "cost:50"},
                    {"SQTT_INSTRUMENT_BARRIERS", "1"},
                    {"SQTT_INSTRUMENT_MEMORY", "4:8"},
                    {"SQTT_SCOPE_WAVE", "0xff"},
                    {"SQTT_SCOPE_SIMD", "3"},
                    {"SQTT_SCOPE_CU", "-1"},
                    {"SQTT_SCOPE_WG", "0x10"},
                    {"SQTT_SHADER_CLOCK_BITS", "12"},
                    {"SQTT_SHADER_CLOCK_SHIFT", "6"},
                    {"SQTT_MEM_BARRIER", "none"}});
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->FunctionMode, CostMode::WeightedCost);
  EXPECT_EQ(C->FunctionThreshold, 50u);
  EXPECT_TRUE(C->InstrumentBarriers);
  EXPECT_EQ(C->MemoryChunk, 4u);
  EXPECT_EQ(C->MemoryMaxGap, 8u);
  EXPECT_EQ(C->Scope.Wave, 0xffu);
  EXPECT_EQ(C->Scope.Simd, 3u);
  EXPECT_EQ(C->Scope.Cu, 0xffffffffu);
  EXPECT_FALSE(C->Scope.checksCu());
  EXPECT_EQ(C->Scope.Wg, 0x10u);
  EXPECT_EQ(C->ShaderClockBits, 12u);
  EXPECT_EQ(C->ShaderClockShift, 6u);
  EXPECT_EQ(C->MemBarrier, MemBarrierMode::None);
}

TEST(SQTTConfigTest, ArgumentsOverrideTheEnvironment) {
  auto C = fromEnv({{"SQTT_INSTRUMENT_FUNCTIONS", "5"},
                    {"SQTT_INSTRUMENT_BARRIERS", "1"},
                    {"SQTT_SCOPE_CU", "0x3"}});
  ASSERT_TRUE(bool(C));
  PassArguments Args = parsePassArguments(
      "functions=10,barriers=0,memory=2:5,scope-cu=0xf,funcmap-out=x.map,funcmap-in-asm,verify");
  ASSERT_FALSE(bool(C->applyArguments(Args)));
  EXPECT_EQ(C->FunctionMode, CostMode::InstructionCount);
  EXPECT_EQ(C->FunctionThreshold, 10u);
  EXPECT_FALSE(C->InstrumentBarriers);
  EXPECT_EQ(C->MemoryChunk, 2u);
  EXPECT_EQ(C->MemoryMaxGap, 5u);
  EXPECT_EQ(C->Scope.Cu, 0xfu);
  EXPECT_EQ(C->FuncmapOut, "x.map");
  EXPECT_TRUE(C->FuncmapInAsm);
  EXPECT_TRUE(C->Verify);
  EXPECT_FALSE(C->Stats);
  // A bare `barriers` turns barriers on.
  ASSERT_FALSE(bool(C->applyArguments(parsePassArguments("barriers"))));
  EXPECT_TRUE(C->InstrumentBarriers);
}

TEST(SQTTConfigTest, InvalidValuesNameTheVariable) {
  auto Memory = fromEnv({{"SQTT_INSTRUMENT_MEMORY", "4"}});
  ASSERT_FALSE(bool(Memory));
  EXPECT_NE(errorOf(Memory.takeError()).find("invalid SQTT_INSTRUMENT_MEMORY='4': expected N:M"),
            std::string::npos);
  auto Cost = fromEnv({{"SQTT_INSTRUMENT_FUNCTIONS", "cost:"}});
  ASSERT_FALSE(bool(Cost));
  EXPECT_NE(errorOf(Cost.takeError()).find("SQTT_INSTRUMENT_FUNCTIONS='cost:'"),
            std::string::npos);
  auto Mask = fromEnv({{"SQTT_SCOPE_CU", "three"}});
  ASSERT_FALSE(bool(Mask));
  EXPECT_NE(errorOf(Mask.takeError()).find("SQTT_SCOPE_CU='three'"), std::string::npos);

  SQTTConfig C;
  std::string E = errorOf(C.applyArguments(parsePassArguments("memory=4")));
  EXPECT_NE(E.find("memory (SQTT_INSTRUMENT_MEMORY)='4'"), std::string::npos) << E;
  E = errorOf(C.applyArguments(parsePassArguments("memory=0:4")));
  EXPECT_NE(E.find("N >= 1"), std::string::npos) << E;
  E = errorOf(C.applyArguments(parsePassArguments("nonsense=1")));
  EXPECT_NE(E.find("unknown argument 'nonsense'"), std::string::npos) << E;
}

TEST(SQTTConfigTest, ValueParsers) {
  EXPECT_EQ(*parseMask("m", "-1"), 0xffffffffu);
  EXPECT_EQ(*parseMask("m", "0x3"), 3u);
  EXPECT_EQ(*parseMask("m", "12"), 12u);
  EXPECT_FALSE(bool(llvm::expectedToOptional(parseMask("m", "0x100000000"))));
  EXPECT_TRUE(*parseBool("b", "yes"));
  EXPECT_FALSE(*parseBool("b", "off"));
  EXPECT_EQ(*parseMemBarrier("x", "2"), MemBarrierMode::Fence);
  EXPECT_EQ(*parseMemBarrier("x", "clobber"), MemBarrierMode::Asm);
  unsigned N = 9, M = 9;
  ASSERT_FALSE(bool(parseMemory("x", "off", N, M)));
  EXPECT_EQ(N, 0u);
  CostMode Mode;
  unsigned T;
  ASSERT_FALSE(bool(parseFunctions("x", "0", Mode, T)));
  EXPECT_EQ(T, 0u);
}

TEST(SQTTConfigTest, ClockPackingNeedsGfx12) {
  SQTTConfig C;
  C.ShaderClockBits = 12;
  const HardwareModel *Gfx942 = HardwareModel::lookup("gfx942");
  const HardwareModel *Gfx1201 = HardwareModel::lookup("gfx1201");
  ASSERT_TRUE(Gfx942 && Gfx1201);
  std::string E = errorOf(C.checkTarget(*Gfx942));
  EXPECT_NE(E.find("invalid SQTT_SHADER_CLOCK_BITS='12'"), std::string::npos) << E;
  EXPECT_FALSE(bool(C.checkTarget(*Gfx1201)));
  C.ShaderClockBits = 30;
  EXPECT_TRUE(bool(llvm::errorToBool(C.checkTarget(*Gfx1201))));
  C.ShaderClockBits = 0;
  EXPECT_FALSE(bool(C.checkTarget(*Gfx942)));
}

TEST(SQTTConfigTest, LoopsAndDensityWarn) {
  auto C = fromEnv({{"SQTT_INSTRUMENT_LOOPS", "outer"}});
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->Loops, LoopMode::Outer);
  EXPECT_FALSE(C->DensityWarn.has_value());
  // A bare `loops` is every loop; the argument wins over the environment.
  ASSERT_FALSE(bool(C->applyArguments(parsePassArguments("loops,density-warn=8"))));
  EXPECT_EQ(C->Loops, LoopMode::All);
  EXPECT_EQ(C->DensityWarn, 8u);
  ASSERT_FALSE(bool(C->applyArguments(parsePassArguments("loops=off"))));
  EXPECT_EQ(C->Loops, LoopMode::Off);
  std::string E = errorOf(C->applyArguments(parsePassArguments("loops=inner")));
  EXPECT_EQ(E, "invalid loops (SQTT_INSTRUMENT_LOOPS)='inner': expected all, outer or off");
  E = errorOf(C->applyArguments(parsePassArguments("density-warn=x")));
  EXPECT_EQ(E, "invalid density-warn='x': expected a non-negative decimal number");
}

TEST(SQTTConfigTest, AddressTracing) {
  auto C = fromEnv({{"SQTT_TRACE_ADDRESSES", "memory,lds"}});
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_TRUE(C->Addresses.Memory);
  EXPECT_TRUE(C->Addresses.Lds);
  ASSERT_FALSE(bool(C->applyArguments(parsePassArguments("addresses=lds"))));
  EXPECT_FALSE(C->Addresses.Memory);
  EXPECT_TRUE(C->Addresses.Lds);
  // The spec's `memory,lds` in an argument list (the comma also separates
  // arguments), or with `+`.
  ASSERT_FALSE(bool(C->applyArguments(parsePassArguments("addresses=memory,lds,verify"))));
  EXPECT_TRUE(C->Addresses.Memory && C->Addresses.Lds && C->Verify);
  ASSERT_FALSE(bool(C->applyArguments(parsePassArguments("addresses=off"))));
  EXPECT_FALSE(C->Addresses.any());
  ASSERT_FALSE(bool(C->applyArguments(parsePassArguments("addresses=lds+memory"))));
  EXPECT_TRUE(C->Addresses.Memory && C->Addresses.Lds);
  // A bare `lds` not after `addresses=` is no argument.
  EXPECT_NE(errorOf(C->applyArguments(parsePassArguments("verify,lds"))), "");
  std::string E = errorOf(C->applyArguments(parsePassArguments("addresses=scratch")));
  EXPECT_EQ(E, "invalid addresses (SQTT_TRACE_ADDRESSES)='scratch': expected memory, lds or "
               "memory,lds (or off)");
}

} // namespace

//===- SQTTConfig.cpp - SQTT instrumentation settings ---------------------===//
#include "asm-instrument/sqtt/SQTTConfig.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace stinkytofu::sqtt {

static Error invalid(StringRef What, StringRef V, const Twine &Expected) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid " + What + "='" + V + "': expected " + Expected);
}

Expected<unsigned> parseUnsigned(StringRef What, StringRef V) {
  unsigned Out = 0;
  if (V.trim().getAsInteger(10, Out))
    return invalid(What, V, "a non-negative decimal number");
  return Out;
}

Expected<bool> parseBool(StringRef What, StringRef V) {
  StringRef S = V.trim();
  for (StringRef T : {"1", "y", "yes", "on", "true"})
    if (S.equals_insensitive(T))
      return true;
  for (StringRef F : {"0", "n", "no", "off", "false"})
    if (S.equals_insensitive(F))
      return false;
  return invalid(What, V, "0 or 1 (also yes/no, on/off, true/false)");
}

Expected<uint32_t> parseMask(StringRef What, StringRef V) {
  StringRef S = V.trim();
  if (S == "-1")
    return 0xFFFFFFFFu;
  uint64_t Out = 0;
  // getAsInteger with radix 0 takes 0x.., 0b.., 0o.. and decimal.
  if (S.empty() || S.getAsInteger(0, Out) || Out > 0xFFFFFFFFull)
    return invalid(What, V, "a 32-bit mask (0x3, 3, or -1 for all)");
  return static_cast<uint32_t>(Out);
}

Error parseFunctions(StringRef What, StringRef V, CostMode &Mode, unsigned &Threshold) {
  StringRef S = V.trim();
  CostMode M = CostMode::InstructionCount;
  if (S.consume_front("cost:"))
    M = CostMode::WeightedCost;
  unsigned N = 0;
  if (S.empty() || S.getAsInteger(10, N))
    return invalid(What, V, "an instruction count N or cost:N");
  Mode = M;
  Threshold = N;
  return Error::success();
}

Error parseMemory(StringRef What, StringRef V, unsigned &Chunk, unsigned &MaxGap) {
  StringRef S = V.trim();
  if (S.equals_insensitive("off") || S == "0") {
    Chunk = MaxGap = 0;
    return Error::success();
  }
  auto [NStr, MStr] = S.split(':');
  unsigned N = 0, M = 0;
  if (!S.contains(':') || NStr.getAsInteger(10, N) || MStr.getAsInteger(10, M) || N == 0)
    return invalid(What, V,
                   "N:M (N >= 1 memory operations per marker, M the largest gap "
                   "in instructions between operations of a group), or off");
  Chunk = N;
  MaxGap = M;
  return Error::success();
}

Expected<MemBarrierMode> parseMemBarrier(StringRef What, StringRef V) {
  StringRef S = V.trim();
  for (StringRef T : {"none", "off", "0"})
    if (S.equals_insensitive(T))
      return MemBarrierMode::None;
  for (StringRef T : {"asm", "compiler", "clobber", "1"})
    if (S.equals_insensitive(T))
      return MemBarrierMode::Asm;
  for (StringRef T : {"fence", "on", "hw", "2"})
    if (S.equals_insensitive(T))
      return MemBarrierMode::Fence;
  return invalid(What, V, "none, asm or fence (or 0, 1, 2)");
}

Expected<AddressTraceFilter> parseAddresses(StringRef What, StringRef V) {
  AddressTraceFilter F;
  StringRef S = V.trim();
  for (StringRef T : {"off", "none", "0"})
    if (S.equals_insensitive(T))
      return F;
  SmallVector<StringRef, 2> Parts;
  SplitString(S, Parts, ",+");
  for (StringRef P : Parts) {
    P = P.trim();
    if (P.equals_insensitive("memory"))
      F.Memory = true;
    else if (P.equals_insensitive("lds"))
      F.Lds = true;
    else
      return invalid(What, V, "memory, lds or memory,lds (or off)");
  }
  if (!F.any())
    return invalid(What, V, "memory, lds or memory,lds (or off)");
  return F;
}

Expected<LoopMode> parseLoops(StringRef What, StringRef V) {
  StringRef S = V.trim();
  for (StringRef T : {"all", "on", "1"})
    if (S.equals_insensitive(T))
      return LoopMode::All;
  if (S.equals_insensitive("outer"))
    return LoopMode::Outer;
  for (StringRef T : {"off", "none", "0"})
    if (S.equals_insensitive(T))
      return LoopMode::Off;
  return invalid(What, V, "all, outer or off");
}

namespace {

/// One setting, known by an environment variable and a pass argument.
struct Setting {
  const char *Env;
  const char *Arg;
  Error (*Apply)(SQTTConfig &, StringRef What, StringRef V);
};

/// Stores a parsed value in its field, or passes the parse error on.
template <typename T> Error store(Expected<T> Parsed, T &Field) {
  if (!Parsed)
    return Parsed.takeError();
  Field = *Parsed;
  return Error::success();
}

const Setting Settings[] = {
    {"SQTT_INSTRUMENT_FUNCTIONS", "functions",
     [](SQTTConfig &C, StringRef W, StringRef V) {
       return parseFunctions(W, V, C.FunctionMode, C.FunctionThreshold);
     }},
    {"SQTT_INSTRUMENT_BARRIERS", "barriers",
     [](SQTTConfig &C, StringRef W, StringRef V) {
       return store(parseBool(W, V), C.InstrumentBarriers);
     }},
    {"SQTT_INSTRUMENT_MEMORY", "memory",
     [](SQTTConfig &C, StringRef W, StringRef V) {
       return parseMemory(W, V, C.MemoryChunk, C.MemoryMaxGap);
     }},
    {"SQTT_SCOPE_WAVE", "scope-wave",
     [](SQTTConfig &C, StringRef W, StringRef V) { return store(parseMask(W, V), C.Scope.Wave); }},
    {"SQTT_SCOPE_SIMD", "scope-simd",
     [](SQTTConfig &C, StringRef W, StringRef V) { return store(parseMask(W, V), C.Scope.Simd); }},
    {"SQTT_SCOPE_CU", "scope-cu",
     [](SQTTConfig &C, StringRef W, StringRef V) { return store(parseMask(W, V), C.Scope.Cu); }},
    {"SQTT_SCOPE_WG", "scope-wg",
     [](SQTTConfig &C, StringRef W, StringRef V) { return store(parseMask(W, V), C.Scope.Wg); }},
    {"SQTT_SHADER_CLOCK_BITS", "shader-clock-bits",
     [](SQTTConfig &C, StringRef W, StringRef V) {
       return store(parseUnsigned(W, V), C.ShaderClockBits);
     }},
    {"SQTT_SHADER_CLOCK_SHIFT", "shader-clock-shift",
     [](SQTTConfig &C, StringRef W, StringRef V) -> Error {
       Expected<unsigned> N = parseUnsigned(W, V);
       if (!N)
         return N.takeError();
       if (*N > 31)
         return invalid(W, V, "a shift from 0 to 31");
       C.ShaderClockShift = *N;
       return Error::success();
     }},
    {"SQTT_MEM_BARRIER", "mem-barrier",
     [](SQTTConfig &C, StringRef W, StringRef V) {
       // Accepted; no effect on final assembly.
       return store(parseMemBarrier(W, V), C.MemBarrier);
     }},
    {"SQTT_TRACE_ADDRESSES", "addresses",
     [](SQTTConfig &C, StringRef W, StringRef V) {
       return store(parseAddresses(W, V), C.Addresses);
     }},
    {"SQTT_INSTRUMENT_LOOPS", "loops",
     [](SQTTConfig &C, StringRef W, StringRef V) {
       return store(parseLoops(W, V), C.Loops);
     }},
};

} // namespace

Expected<SQTTConfig>
SQTTConfig::fromEnvironment(function_ref<std::optional<std::string>(StringRef)> Getenv) {
  SQTTConfig C;
  for (const Setting &S : Settings) {
    std::optional<std::string> V = Getenv(S.Env);
    if (!V || V->empty())
      continue;
    if (Error E = S.Apply(C, S.Env, *V))
      return std::move(E);
  }
  return C;
}

std::vector<StringRef> SQTTConfig::environmentVariables() {
  std::vector<StringRef> Names;
  for (const Setting &S : Settings)
    Names.push_back(S.Env);
  return Names;
}

Error SQTTConfig::applyArguments(const PassArguments &Args) {
  // `addresses=memory,lds`: the comma also separates arguments, so a bare
  // `lds` or `memory` right after `addresses=` continues its list.
  bool InAddresses = false;
  for (const auto &[Key, Value] : Args) {
    if (InAddresses && Value.empty() && (Key == "lds" || Key == "memory")) {
      (Key == "lds" ? Addresses.Lds : Addresses.Memory) = true;
      continue;
    }
    InAddresses = Key == "addresses";
    auto Flag = [&](bool &Field) -> Error {
      if (Value.empty()) {
        Field = true;
        return Error::success();
      }
      Expected<bool> B = parseBool(Key, Value);
      if (!B)
        return B.takeError();
      Field = *B;
      return Error::success();
    };
    if (Key == "funcmap-out") {
      if (Value.empty())
        return invalid(Key, Value, "a file name");
      FuncmapOut = Value;
      continue;
    }
    if (Key == "funcmap-in-asm") {
      if (Error E = Flag(FuncmapInAsm))
        return E;
      continue;
    }
    if (Key == "verify") {
      if (Error E = Flag(Verify))
        return E;
      continue;
    }
    if (Key == "stats") {
      if (Error E = Flag(Stats))
        return E;
      continue;
    }
    if (Key == "density-warn") {
      Expected<unsigned> N = parseUnsigned(Key, Value);
      if (!N)
        return N.takeError();
      DensityWarn = *N;
      continue;
    }
    const Setting *Found = nullptr;
    for (const Setting &S : Settings)
      if (Key == S.Arg)
        Found = &S;
    if (!Found) {
      std::string Known;
      for (const Setting &S : Settings)
        Known += std::string(S.Arg) + ", ";
      Known += "funcmap-out, funcmap-in-asm, verify, stats, density-warn";
      return createStringError(inconvertibleErrorCode(),
                               "unknown argument '" + Key + "' (known: " + Known + ")");
    }
    // A bare flag means "on" for the boolean setting.
    StringRef V = Value;
    if (V.empty() && StringRef(Found->Arg) == "barriers")
      V = "1";
    if (V.empty() && StringRef(Found->Arg) == "loops")
      V = "all";
    if (Error E = Found->Apply(*this, Twine(Key).str() + " (" + Found->Env + ")", V))
      return E;
  }
  return Error::success();
}

Error SQTTConfig::checkTarget(const HardwareModel &HW) const {
  if (ShaderClockBits == 0)
    return Error::success();
  std::string Value = std::to_string(ShaderClockBits);
  if (HW.generation() != "gfx12")
    return createStringError(
        inconvertibleErrorCode(),
        "invalid SQTT_SHADER_CLOCK_BITS='" + Value + "': shader-clock packing needs a gfx12 "
            "target (gfx1200, gfx1201, gfx1250), not " + HW.processor());
  if (ShaderClockBits > 29)
    return invalid("SQTT_SHADER_CLOCK_BITS", Value, "at most 29 bits (one id bit must stay)");
  if (ShaderClockBits + ShaderClockShift > 32)
    return createStringError(inconvertibleErrorCode(),
                             "invalid SQTT_SHADER_CLOCK_BITS='" + Value +
                                 "' with SQTT_SHADER_CLOCK_SHIFT=" +
                                 std::to_string(ShaderClockShift) +
                                 ": bits + shift must not exceed 32");
  return Error::success();
}

} // namespace stinkytofu::sqtt

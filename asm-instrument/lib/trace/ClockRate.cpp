//===- ClockRate.cpp - Shader cycles to time (realtime.json) --------------===//
#include "asm-instrument/trace/ClockRate.h"
#include "asm-instrument/trace/JsonInput.h"
#include "llvm/Support/FileSystem.h"
#include <vector>

using namespace llvm;
namespace od = simdjson::ondemand;

namespace stinkytofu::trace {

Expected<std::optional<double>> readClockRateGHz(StringRef Path) {
  if (!sys::fs::exists(Path))
    return std::nullopt;
  double Frequency = 0;
  std::optional<double> GHz;
  std::vector<std::pair<uint64_t, uint64_t>> Samples;
  JsonReader Reader;
  Error E = Reader.read(Path, [&](od::document &Doc) {
    for (auto Field : Doc.get_object()) {
      std::string_view Key = Field.unescaped_key();
      if (Key == "metadata") {
        for (auto M : Field.value().get_object())
          if (std::string_view(M.unescaped_key()) == "frequency")
            Frequency = double(readUnsigned(M.value(), "frequency"));
      } else if (Key.substr(0, 2) == "SE" && !GHz) {
        Samples.clear();
        for (auto Pair : Field.value().get_array()) {
          uint64_t V[2];
          unsigned N = 0;
          for (auto X : Pair.get_array()) {
            if (N >= 2)
              throw JsonFormatError("realtime sample with more than 2 values");
            V[N++] = readUnsigned(X.value(), "realtime sample");
          }
          if (N != 2)
            throw JsonFormatError("realtime sample with fewer than 2 values");
          Samples.push_back({V[0], V[1]});
        }
        if (Samples.size() >= 2 && Samples.back().second != Samples.front().second &&
            Samples.back().first != Samples.front().first)
          GHz = double(Samples.back().first - Samples.front().first) /
                double(Samples.back().second - Samples.front().second);
      }
    }
  });
  if (E)
    return std::move(E);
  if (!GHz)
    return std::nullopt;
  if (Frequency <= 0)
    return fileError(Path, "metadata.frequency missing or zero");
  // cycles per realtime tick * ticks per second = Hz.
  return *GHz * Frequency / 1e9;
}

Expected<double> dispatchClockGHz(std::optional<double> Given, StringRef DispatchPath,
                                  StringRef RealtimePath, std::vector<std::string> &Warnings) {
  if (Given)
    return *Given;
  Expected<std::optional<double>> Rate = readClockRateGHz(RealtimePath);
  if (!Rate)
    return Rate.takeError();
  if (*Rate)
    return **Rate;
  Warnings.push_back(DispatchPath.str() +
                     ": no clock rate (realtime.json); assuming 1 GHz, set --clock-rate-ghz");
  return 1.0;
}

} // namespace stinkytofu::trace

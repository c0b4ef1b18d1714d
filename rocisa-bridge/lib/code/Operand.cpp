//===- Operand.cpp - Printing instruction inputs ------------------------===//
#include "rocisa-bridge/code/Operand.h"
#include <cmath>
#include <cstdio>

namespace rocisa {

std::string RegisterContainer::toString() const {
  if (isNamed()) {
    std::string Base = regType + "gpr" + regName;
    if (regIdx != 0)
      Base += "+" + std::to_string(regIdx);
    if (regNum == 1)
      return regType + "[" + Base + "]";
    return regType + "[" + Base + ":" + Base + "+" + std::to_string(regNum - 1) + "]";
  }
  if (regNum == 1)
    return regType + std::to_string(regIdx);
  return regType + "[" + std::to_string(regIdx) + ":" + std::to_string(regIdx + regNum - 1) +
         "]";
}

std::string inputToString(const InstructionInput &In) {
  if (const auto *R = std::get_if<RegisterContainer>(&In))
    return R->toString();
  if (const auto *I = std::get_if<int64_t>(&In))
    return std::to_string(*I);
  if (const auto *D = std::get_if<double>(&In)) {
    char Buffer[40];
    std::snprintf(Buffer, sizeof(Buffer), "%.17g", *D);
    std::string S = Buffer;
    // A float keeps a decimal point, so MC reads it as a float.
    if (S.find_first_of(".eni") == std::string::npos)
      S += ".0";
    return S;
  }
  return std::get<std::string>(In);
}

} // namespace rocisa

//===- SourceLocation.h - Where an IR element came from ---------*- C++ -*-===//
#ifndef STINKYTOFU_IR_SOURCELOCATION_H
#define STINKYTOFU_IR_SOURCELOCATION_H

namespace stinkytofu {

/// 1-based line and column in the module's input file; 0 when synthesized.
struct SourceLocation {
  unsigned Line = 0;
  unsigned Column = 0;
  bool isValid() const { return Line != 0; }
};

} // namespace stinkytofu

#endif

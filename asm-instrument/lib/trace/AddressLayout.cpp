//===- AddressLayout.cpp - Address-trace blocks: layout and addresses -----===//
#include "asm-instrument/trace/AddressLayout.h"

using namespace llvm;

namespace stinkytofu::trace {

AddressLayout addressLayoutOf(StringRef Name) {
  if (!Name.consume_front("addr_trace_"))
    return AddressLayout::None;
  if (Name.starts_with("struct_buffer_"))
    return AddressLayout::StructBuffer;
  if (Name.starts_with("buffer_"))
    return AddressLayout::Buffer;
  if (Name.starts_with("lds_") || Name.starts_with("ds_"))
    return AddressLayout::Word32;
  return AddressLayout::Flat64;
}

uint32_t addressPayloadCount(AddressLayout L, unsigned WaveSize) {
  switch (L) {
  case AddressLayout::None:
    return 0;
  case AddressLayout::Flat64:
    return 2 + 2 * WaveSize;
  case AddressLayout::Word32:
    return 2 + WaveSize;
  case AddressLayout::Buffer:
    return 2 + 3 + WaveSize;
  case AddressLayout::StructBuffer:
    return 2 + 3 + 2 * WaveSize;
  }
  return 0;
}

void decodeAddressBlock(AddressLayout L, unsigned WaveSize, ArrayRef<uint32_t> Words,
                        AddressTrace &Out) {
  Out.Exec = uint64_t(Words[0]) | uint64_t(Words[1]) << 32;
  if (WaveSize < 64)
    Out.Exec &= (uint64_t(1) << WaveSize) - 1;
  Out.Lanes.clear();
  ArrayRef<uint32_t> Data = Words.drop_front(2);
  uint64_t Base = 0, Stride = 0;
  if (L == AddressLayout::Buffer || L == AddressLayout::StructBuffer) {
    // Descriptor word 0-1: base address [47:0]; word 1 [29:16]: stride.
    Base = (uint64_t(Data[0]) | uint64_t(Data[1]) << 32) & 0xFFFFFFFFFFFFull;
    Base += Data[2]; // soffset
    Stride = (Data[1] >> 16) & 0x3FFF;
    Data = Data.drop_front(3);
  }
  for (unsigned Lane = 0; Lane < WaveSize; ++Lane) {
    if (!(Out.Exec >> Lane & 1))
      continue;
    uint64_t Addr = 0;
    switch (L) {
    case AddressLayout::Flat64:
      Addr = uint64_t(Data[2 * Lane]) | uint64_t(Data[2 * Lane + 1]) << 32;
      break;
    case AddressLayout::Word32:
      Addr = Data[Lane];
      break;
    case AddressLayout::Buffer:
      Addr = Base + Data[Lane];
      break;
    case AddressLayout::StructBuffer:
      Addr = Base + Data[Lane] + uint64_t(Data[WaveSize + Lane]) * Stride;
      break;
    case AddressLayout::None:
      break;
    }
    Out.Lanes.push_back({Lane, Addr});
  }
}

} // namespace stinkytofu::trace

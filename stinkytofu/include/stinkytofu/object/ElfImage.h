//===- ElfImage.h - A checked little-endian ELF64 image ---------*- C++ -*-===//
//
// Wraps llvm::object::ELFFile<ELF64LE> after checking everything the funcmap
// tools and the disassembler touch: the identification bytes (ELF64, little-endian only), the
// header size, the section header table and every section's and segment's
// file range, the section names and the symbol tables. After create()
// succeeds, the accessors below cannot fail. Error messages give the reason
// only; callers put the file name in front ("error: FILE: reason").
//
// The bytes must stay alive (and 8-byte aligned, as MemoryBuffer keeps them)
// for as long as the image is used.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_OBJECT_ELFIMAGE_H
#define STINKYTOFU_OBJECT_ELFIMAGE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>

namespace stinkytofu::elf {

using ELFT = llvm::object::ELF64LE;
using Elf_Ehdr = ELFT::Ehdr;
using Elf_Shdr = ELFT::Shdr;
using Elf_Phdr = ELFT::Phdr;

/// A defined symbol: its value (the vaddr in a linked code object, the
/// section offset in a relocatable object) and its STT_* type.
struct SymbolInfo {
  uint64_t Value = 0;
  uint8_t Type = 0;
};

class ElfImage {
public:
  /// Checks \p Bytes and wraps them. Rejects anything that is not a
  /// little-endian ELF64 file with in-bounds sections, segments and names.
  static llvm::Expected<ElfImage> create(llvm::StringRef Bytes);

  llvm::StringRef bytes() const { return Bytes; }
  const llvm::object::ELFFile<ELFT> &file() const { return File; }
  const Elf_Ehdr &header() const { return File.getHeader(); }
  uint16_t machine() const { return header().e_machine; }
  bool isAMDGPU() const { return machine() == llvm::ELF::EM_AMDGPU; }

  /// The section headers, index 0 (SHT_NULL) included.
  llvm::ArrayRef<Elf_Shdr> sections() const { return Sections; }
  llvm::ArrayRef<Elf_Phdr> programHeaders() const { return Segments; }
  /// Index of the section name table (resolves SHN_XINDEX).
  unsigned sectionNameTableIndex() const { return ShStrIndex; }
  llvm::StringRef sectionNameTable() const { return ShStrTab; }
  llvm::StringRef sectionName(const Elf_Shdr &S) const;
  /// The section's bytes; empty for SHT_NOBITS.
  llvm::StringRef sectionContents(const Elf_Shdr &S) const;
  /// Indices of the sections named \p Name (section 0 excluded).
  llvm::SmallVector<unsigned, 1> findSections(llvm::StringRef Name) const;

  /// Defined symbols of .symtab, then .dynsym (names already seen keep their
  /// first entry unless a later one is STT_FUNC and the first is not).
  /// Undefined and SHN_ABS symbols are left out.
  const llvm::StringMap<SymbolInfo> &definedSymbols() const { return Symbols; }

  /// The AMDGPU target id from e_flags, e.g. "gfx90a", "gfx942:sramecc+:xnack-";
  /// empty when this is not an AMDGPU object or the processor is unknown.
  std::string amdgpuTargetId() const;

private:
  ElfImage(llvm::StringRef Bytes, llvm::object::ELFFile<ELFT> File)
      : Bytes(Bytes), File(std::move(File)) {}
  llvm::Error check();
  llvm::Error readSymbols();

  llvm::StringRef Bytes;
  llvm::object::ELFFile<ELFT> File;
  llvm::ArrayRef<Elf_Shdr> Sections;
  llvm::ArrayRef<Elf_Phdr> Segments;
  unsigned ShStrIndex = 0;
  llvm::StringRef ShStrTab;
  llvm::StringMap<SymbolInfo> Symbols;
};

/// "EM_AMDGPU", "EM_X86_64", ... or "machine N".
std::string elfMachineName(uint16_t Machine);

/// The processor name for an EF_AMDGPU_MACH value ("gfx90a"), or "".
llvm::StringRef amdgpuProcessorName(unsigned Mach);

} // namespace stinkytofu::elf

#endif

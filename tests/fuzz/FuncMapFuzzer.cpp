//===- FuncMapFuzzer.cpp - libFuzzer target for the funcmap tools ---------===//
//
// Feeds every input to
//  - the funcmap parser, both modes: lenient never fails; what strict accepts
//    verifies and round-trips through the printer, and so does a lenient
//    result that verifies;
//  - the code-object scanner (ELF64, offload bundles, .hip_fatbin) and the
//    dump report of every code object it finds;
//  - the patcher: a patched image reads back with the new section, patching
//    again changes nothing, and replacing the funcmap equals patching the
//    input with the replacement.
// A broken invariant aborts, which libFuzzer reports as a crash. Run for a
// fixed number of iterations by tests/lit/fuzz/funcmap.test.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"
#include "stinkytofu/object/CodeObjectScanner.h"
#include "stinkytofu/object/ElfImage.h"
#include "asm-instrument/elf/FuncMapPatcher.h"
#include "asm-instrument/elf/FuncMapReport.h"
#include "asm-instrument/funcmap/FuncMapParser.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace stinkytofu;
using fuzz::check;

namespace {

void fuzzFuncMapText(StringRef Bytes) {
  std::vector<funcmap::FuncMapWarning> Warnings;
  Expected<funcmap::FuncMap> Lenient =
      funcmap::parseFuncMap(Bytes, funcmap::ParseMode::Lenient, &Warnings);
  check(bool(Lenient), "lenient parsing failed");
  // A leniently read map that passes the checks prints as text the strict
  // parser reads back unchanged (what it keeps beyond that, e.g. a name
  // with a trailing blank before '@', has no exact text form).
  if (Error E = Lenient->verify()) {
    consumeError(std::move(E));
  } else {
    std::string Printed = funcmap::printFuncMap(*Lenient);
    Expected<funcmap::FuncMap> Again =
        funcmap::parseFuncMap(Printed, funcmap::ParseMode::Strict);
    check(bool(Again), "a verified lenient map does not print as strict text");
    check(*Again == *Lenient, "print -> strict parse changed a lenient map");
  }

  Expected<funcmap::FuncMap> Strict = funcmap::parseFuncMap(Bytes, funcmap::ParseMode::Strict);
  if (!Strict) {
    consumeError(Strict.takeError());
    return;
  }
  check(!Strict->verify(), "strictly parsed map does not verify");
  std::string Text = funcmap::printFuncMap(*Strict);
  Expected<funcmap::FuncMap> Reparsed = funcmap::parseFuncMap(Text, funcmap::ParseMode::Strict);
  check(bool(Reparsed), "printed map does not parse strictly");
  check(*Reparsed == *Strict, "print -> strict parse changed the map");
  check(funcmap::printFuncMap(*Reparsed) == Text, "print is not a fixpoint");
}

void fuzzScanner(MemoryBufferRef Buffer) {
  Expected<elf::CodeObjectSet> Set = elf::findCodeObjects(Buffer);
  if (!Set) {
    consumeError(Set.takeError());
    return;
  }
  for (const elf::FoundCodeObject &CO : Set->Objects) {
    Expected<elf::ElfImage> Image = elf::ElfImage::create(CO.Bytes);
    check(bool(Image), "a found code object does not read");
    elf::FuncMapReport Report = elf::buildFuncMapReport(*Image, {/*Demangle=*/true});
    elf::printFuncMapTable(Report, nulls());
    std::string Json;
    raw_string_ostream OS(Json);
    OS << json::Value(elf::funcMapReportToJSON(Report));
  }
}

void fuzzPatcher(StringRef Bytes) {
  static const std::string MapA = "F:1:f@a.cl:1\nK:k\nU:2:u\nP:3:barrier\n" + std::string(1, '\0');
  static const std::string MapB = std::string("K:k\n") + '\0';
  Expected<std::string> A = elf::patchFuncMapSection(Bytes, MapA);
  if (!A) {
    consumeError(A.takeError());
    return;
  }
  Expected<elf::ElfImage> Image = elf::ElfImage::create(*A);
  check(bool(Image), "patched image does not read");
  SmallVector<unsigned, 1> Found = Image->findSections(funcmap::FuncMapSectionName);
  check(Found.size() == 1 && Image->sectionContents(Image->sections()[Found[0]]) == MapA,
        "patched image lacks the funcmap");
  Expected<std::string> Twice = elf::patchFuncMapSection(*A, MapA);
  check(Twice && *Twice == *A, "patching twice differs from patching once");
  Expected<std::string> Replaced = elf::patchFuncMapSection(*A, MapB);
  Expected<std::string> Direct = elf::patchFuncMapSection(Bytes, MapB);
  check(Replaced && Direct && *Replaced == *Direct, "replacing differs from patching directly");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::unique_ptr<MemoryBuffer> Buffer = fuzz::inputBuffer(Data, Size, "fuzz-input");
  fuzzFuncMapText(Buffer->getBuffer());
  fuzzScanner(Buffer->getMemBufferRef());
  fuzzPatcher(Buffer->getBuffer());
  return 0;
}

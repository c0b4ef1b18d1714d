//===- BinaryInputOptions.cpp - stinkytofu-opt's binary input -------------===//
#include "BinaryInputOptions.h"
#include "stinkytofu/disasm/BinaryInput.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace stinkytofu {

BinaryInputOptions::BinaryInputOptions(cl::OptionCategory &Category)
    : ListKernels("list-kernels",
                  cl::desc("List the code objects (target ids, bundle entries) and kernels of "
                           "binary inputs and exit"),
                  cl::cat(Category)),
      Kernel("kernel",
             cl::desc("Binary input: disassemble only this kernel (its code, descriptor and "
                      "metadata)"),
             cl::value_desc("name"), cl::cat(Category)),
      BundleEntry("bundle-entry",
                  cl::desc("Binary input holding several code objects: read the one of this "
                           "bundle entry id or target id"),
                  cl::value_desc("id"), cl::cat(Category)) {}

bool BinaryInputOptions::checkApplies(StringRef InputFile, bool IsBinary,
                                      raw_ostream &Err) const {
  if (IsBinary || (Kernel.empty() && BundleEntry.empty()))
    return true;
  WithColor::error(Err, InputFile)
      << "--kernel and --bundle-entry select from a code object, bundle or fat binary; "
         "this input is text\n";
  return false;
}

bool BinaryInputOptions::disassembleIfBinary(std::unique_ptr<MemoryBuffer> &Buffer,
                                             StringRef InputFile, raw_ostream &Err,
                                             KnownStatements &Known) const {
  bool IsBinary = isBinaryInput(Buffer->getBuffer());
  if (!checkApplies(InputFile, IsBinary, Err))
    return false;
  if (!IsBinary)
    return true;
  Expected<std::unique_ptr<MemoryBuffer>> Text =
      disassembleBinary(Buffer->getMemBufferRef(), {BundleEntry, Kernel}, &Known);
  if (!Text) {
    WithColor::error(Err, InputFile) << toString(Text.takeError()) << "\n";
    return false;
  }
  Buffer = std::move(*Text);
  return true;
}

int BinaryInputOptions::listKernels(ArrayRef<std::string> InputFiles) const {
  int Status = 0;
  for (const std::string &InputFile : InputFiles) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFileOrSTDIN(InputFile);
    if (!Buffer) {
      WithColor::error(errs(), InputFile) << Buffer.getError().message() << "\n";
      Status = 1;
      continue;
    }
    if (!isBinaryInput((*Buffer)->getBuffer())) {
      WithColor::error(errs(), InputFile)
          << "--list-kernels reads code objects, bundles and fat binaries; this input is text\n";
      Status = 1;
      continue;
    }
    if (InputFiles.size() > 1)
      outs() << InputFile << ":\n";
    if (Error E = listBinaryKernels((*Buffer)->getMemBufferRef(), outs())) {
      WithColor::error(errs(), InputFile) << toString(std::move(E)) << "\n";
      Status = 1;
    }
  }
  return Status;
}

} // namespace stinkytofu

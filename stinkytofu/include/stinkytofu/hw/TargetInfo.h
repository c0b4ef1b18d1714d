//===- TargetInfo.h - LLVM MC description of one AMDGPU target ---*- C++ -*-===//
//
// The single source of ISA truth: every fact about mnemonics, operands,
// implicit registers, branch/call flags and encodings comes from the LLVM
// AMDGPU MC layer objects held here. A TargetInfo belongs to one holder at a
// time (get() hands an idle one out, or builds one), so that threads never
// share LLVM's MC objects.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_TARGETINFO_H
#define STINKYTOFU_HW_TARGETINFO_H

#include "stinkytofu/support/CheapOnce.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"
#include <array>
#include <memory>
#include <mutex>
#include <string>

namespace llvm {
class MCAsmParser;
class MCContext;
class MCStreamer;
class MCTargetAsmParser;
class SourceMgr;
class Target;
} // namespace llvm

namespace stinkytofu {

class HardwareModel;

enum class RegClass : uint8_t { Other, SGPR, VGPR, AGPR, TTMP, Special };

/// LLVM's assembly parser with this target's parser plugged in.
struct TargetAsmParser {
  std::unique_ptr<llvm::MCAsmParser> Parser;
  std::unique_ptr<llvm::MCTargetAsmParser> TargetParser;
  TargetAsmParser();
  TargetAsmParser(TargetAsmParser &&);
  ~TargetAsmParser();
};

class TargetInfo {
public:
  /// \p TargetId is a processor ("gfx942") or a full target id
  /// ("amdgcn-amd-amdhsa--gfx90a:xnack+"). The result is the caller's until
  /// its last copy goes: use it from one thread at a time (as the module
  /// holding it). It then waits for the next get() of the same id.
  static llvm::Expected<std::shared_ptr<const TargetInfo>> get(llvm::StringRef TargetId);
  /// Processors this build supports and tests.
  static llvm::ArrayRef<llvm::StringRef> supportedProcessors();

  llvm::StringRef processor() const { return Processor; }
  /// Subtarget features derived from the target id (`+xnack,-sramecc`).
  llvm::StringRef features() const { return Features; }
  const llvm::Triple &triple() const { return TheTriple; }
  const llvm::Target &target() const { return *TheTarget; }
  const llvm::MCRegisterInfo &regInfo() const { return *MRI; }
  const llvm::MCAsmInfo &asmInfo() const { return *MAI; }
  const llvm::MCInstrInfo &instrInfo() const { return *MII; }
  const llvm::MCSubtargetInfo &subtargetInfo() const { return *STI; }
  const llvm::MCTargetOptions &targetOptions() const { return Options; }
  const HardwareModel &hardware() const { return *Hardware; }

  /// A parser of buffer \p Buffer of \p SM (0: the main one) that hands
  /// what it reads to \p Out; no TargetParser when LLVM has none.
  TargetAsmParser createAsmParser(llvm::SourceMgr &SM, llvm::MCContext &Ctx,
                                  llvm::MCStreamer &Out, unsigned Buffer = 0) const;

  /// A register by its MC name ("SCC", "M0", "EXEC_LO", "SGPR5").
  llvm::MCRegister findRegister(llvm::StringRef MCName) const;
  /// The generic register behind a subtarget-specific encoding MC may put
  /// in an MCInst (M0_gfxpre11 -> M0, FLAT_SCR_vi -> FLAT_SCR), so that a
  /// write and an implicit read of the same register meet.
  /// (Inline, as classOf and indexOf: the hazard, wait-count and liveness
  /// models ask hundreds of thousands of times a kernel.)
  llvm::MCRegister canonical(llvm::MCRegister Reg) const {
    ensureIndexed();
    return Reg.id() < CanonicalOf.size() ? CanonicalOf[Reg.id()] : Reg;
  }
  /// The register file of a (possibly tuple) register.
  RegClass classOf(llvm::MCRegister Reg) const {
    ensureIndexed();
    return Reg.id() < ClassOfReg.size() ? RegClass(ClassOfReg[Reg.id()]) : RegClass::Other;
  }
  /// The 32-bit registers a register covers (SGPR62_SGPR63 -> SGPR62, SGPR63).
  llvm::SmallVector<llvm::MCRegister, 4> covered32(llvm::MCRegister Reg) const;
  /// Assembly spelling of a register: s[62:63], v5, vcc, exec_lo, scc.
  std::string asmName(llvm::MCRegister Reg) const;
  /// The numeric index of a 32-bit SGPR/VGPR/AGPR/TTMP register.
  std::optional<unsigned> indexOf(llvm::MCRegister Reg) const {
    ensureIndexed();
    if (Reg.id() < IndexOfReg.size() && IndexOfReg[Reg.id()] >= 0)
      return unsigned(IndexOfReg[Reg.id()]);
    return std::nullopt;
  }
  /// The 32-bit register of \p Class with index \p Index.
  llvm::MCRegister reg32(RegClass Class, unsigned Index) const;

  /// Whether the DS instruction of MC opcode \p Opcode, which MC's
  /// descriptor says reads M0, really does on this processor: not when
  /// LLVM has an M0-free variant of its pseudo here
  /// (HardwareModel::dsM0FreeVariant) and \p Gds is off.
  bool dsReadsM0(unsigned Opcode, bool Gds) const;

  /// The def that operand \p Op of MC opcode \p Opcode is tied to, or -1.
  /// Some encodings (S_BITSET1_B32_gfx11) leave their pseudo's constraint
  /// out (S_BITSET1_B32: sdst_in is sdst); then the pseudo's counts.
  int tiedDef(unsigned Opcode, unsigned Op) const;

  /// \p Inst as LLVM's instruction printer writes it (`s_waitcnt
  /// vmcnt(0) lgkmcnt(0)`, `ds_load_b64 v[0:1], v2 offset:16`): fields
  /// decoded, defaults left out. No indent, no newline.
  std::string printMC(const llvm::MCInst &Inst) const;

  ~TargetInfo();

private:
  TargetInfo() = default;
  std::string Processor, Features;
  llvm::Triple TheTriple;
  const llvm::Target *TheTarget = nullptr;
  llvm::MCTargetOptions Options;
  std::unique_ptr<llvm::MCRegisterInfo> MRI;
  std::unique_ptr<llvm::MCAsmInfo> MAI;
  std::unique_ptr<llvm::MCInstrInfo> MII;
  std::unique_ptr<llvm::MCSubtargetInfo> STI;
  const HardwareModel *Hardware = nullptr;
  mutable CheapOnce PrinterOnce;
  mutable std::unique_ptr<llvm::MCInstPrinter> Printer;
  mutable std::mutex PrinterLock; // MCInstPrinter keeps state while printing
  // Register tables, built in one pass over MC's register names on the
  // first register query (a run that never asks pays nothing).
  mutable std::vector<llvm::MCRegister> SGPRs, VGPRs, AGPRs, TTMPs;
  mutable std::vector<uint8_t> ClassOfReg; // indexed by MCRegister id
  mutable std::vector<int32_t> IndexOfReg; // indexed by MCRegister id
  mutable std::vector<llvm::MCRegister> CanonicalOf; // indexed by MCRegister id
  /// MC register names hashed from their length and first and last eight
  /// bytes, which tell MC's names apart (a tuple's first and last register
  /// and its length fix it): hashing whole names was most of the indexing.
  struct RegisterNameInfo : llvm::DenseMapInfo<llvm::StringRef> {
    static unsigned getHashValue(llvm::StringRef Name);
  };
  using NameMap = llvm::DenseMap<llvm::StringRef, llvm::MCRegister, RegisterNameInfo>;
  /// The names outside the four register files (M0, SCC, EXEC_LO, ...).
  mutable NameMap RegByName;
  /// The names of each file (SGPR, VGPR, AGPR, TTMP) that are not a plain
  /// 32-bit register (tuples, halves, encodings): the few hundred SGPR and
  /// TTMP ones with the rest of the index, the VGPR and AGPR ones on the
  /// first lookup of such a name (most runs ask for none of those 20,000).
  mutable std::array<NameMap, 4> FileNames;
  mutable std::array<CheapOnce, 4> FileNamesOnce;
  /// findRegister without ensureIndexed (the indexing itself uses it).
  llvm::MCRegister lookupRegister(llvm::StringRef MCName) const;
  mutable CheapOnce IndexOnce;
  /// Opcodes whose pseudo has an M0-free variant (dsReadsM0).
  mutable std::vector<bool> M0FreeDs;
  mutable CheapOnce M0FreeDsOnce;
  /// The pseudo of each encoding opcode (0: none), for tiedDef.
  mutable std::vector<unsigned> PseudoOf;
  mutable CheapOnce PseudoOfOnce;
  void ensureIndexed() const {
    IndexOnce([this] { indexRegisters(); });
  }
  void indexRegisters() const;
};

} // namespace stinkytofu

#endif

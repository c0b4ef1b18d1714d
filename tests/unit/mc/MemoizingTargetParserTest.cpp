//===- MemoizingTargetParserTest.cpp - Repeated statements and their state -===//
//
// The reader gives a repeated statement the MCInst its text got before,
// only where MC would give the same again (MemoizingTargetParser.h). These
// kernels repeat lines across each kind of state that changes MC's result
// and check every line's own result, place and diagnostics.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <filesystem>

using namespace stinkytofu;

namespace {

struct Assembled {
  std::unique_ptr<AssemblerState> AS;
  AssembledFile File;
  std::vector<AsmDiagnostic> Diags;
  std::vector<llvm::MCInst> Insts;
  std::vector<std::string> Printed;
  /// The 1-based line of every instruction.
  std::vector<unsigned> Lines;
};

Assembled assemble(const std::string &Body) {
  std::string Text = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n.text\n" + Body;
  Assembled A;
  A.AS = std::make_unique<AssemblerState>(llvm::cantFail(TargetInfo::get("gfx90a")));
  A.File = A.AS->assembleFile(llvm::MemoryBuffer::getMemBufferCopy(Text, "k.s"), A.Diags);
  for (const llvm::MCInst &I : A.File.Insts.unpackAll()) {
    A.Insts.push_back(I);
    A.Printed.push_back(A.AS->target().printMC(I));
  }
  for (const AsmEvent &E : A.File.Events)
    if (E.K == AsmEvent::Kind::Instruction)
      A.Lines.push_back(unsigned(llvm::StringRef(Text).take_front(E.Offset).count('\n')) - 1);
  return A;
}

std::vector<std::string> errors(const Assembled &A) {
  std::vector<std::string> Out;
  for (const AsmDiagnostic &D : A.Diags)
    Out.push_back(std::to_string(D.Line - 2) + ": " + D.Diag.getMessage().str());
  return Out;
}

TEST(MemoizingTargetParser, RepeatsKeepTheirPlaceAndTheLinesAfterThem) {
  // The second copy of each line is not parsed; the parser must go on at the
  // next line, whatever ends the statement.
  Assembled A = assemble("v_mov_b32 v1, 0 ; one\n"
                         "v_mov_b32 v1, 0 // two\n"
                         "v_mov_b32 v1, 0\n"
                         "s_endpgm\n"
                         "s_endpgm\n"
                         "v_add_u32 v2, v1, v3\n"
                         "v_add_u32 v2, v1, v3 ; again\n"
                         "s_nop 1\n");
  EXPECT_TRUE(errors(A).empty());
  EXPECT_EQ(A.Printed, (std::vector<std::string>{
                           "v_mov_b32_e32 v1, 0", "v_mov_b32_e32 v1, 0", "v_mov_b32_e32 v1, 0",
                           "s_endpgm", "s_endpgm", "v_add_u32_e32 v2, v1, v3",
                           "v_add_u32_e32 v2, v1, v3", "s_nop 1"}));
  EXPECT_EQ(A.Lines, (std::vector<unsigned>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(MemoizingTargetParser, SymbolValuesAreThoseOfTheLine) {
  Assembled A = assemble(".set base, 1\n"
                         "v_mov_b32 v[base], s[base+1]\n"
                         ".set base, 2\n"
                         "v_mov_b32 v[base], s[base+1]\n"
                         "v_mov_b32 v[base], s[base+1]\n"
                         ".set base, 1\n"
                         "v_mov_b32 v[base], s[base+1]\n");
  EXPECT_TRUE(errors(A).empty());
  EXPECT_EQ(A.Printed, (std::vector<std::string>{"v_mov_b32_e32 v1, s2", "v_mov_b32_e32 v2, s3",
                                                 "v_mov_b32_e32 v2, s3", "v_mov_b32_e32 v1, s2"}));
}

TEST(MemoizingTargetParser, ASymbolDefinedLaterGivesItsValue) {
  // Before its `.set` the symbol is an expression MC leaves to the linker;
  // after it, its value.
  Assembled A = assemble("v_mov_b32 v1, later\n"
                         ".set later, 5\n"
                         "v_mov_b32 v1, later\n");
  EXPECT_TRUE(errors(A).empty());
  ASSERT_EQ(A.Insts.size(), 2u);
  EXPECT_TRUE(A.Insts[0].getOperand(1).isExpr());
  EXPECT_EQ(A.Printed[1], "v_mov_b32_e32 v1, 5");
}

TEST(MemoizingTargetParser, EveryRegisterRaisesTheNextFreeCounts) {
  // The target parser raises .amdgcn.next_free_vgpr at every register it
  // reads: a repeat after the count was lowered must raise it again.
  Assembled A = assemble("v_mov_b32 v10, s7\n"
                         ".set .amdgcn.next_free_vgpr, 0\n"
                         ".set .amdgcn.next_free_sgpr, 0\n"
                         "v_mov_b32 v10, s7\n"
                         ".set vgprs, .amdgcn.next_free_vgpr\n"
                         ".set sgprs, .amdgcn.next_free_sgpr\n");
  EXPECT_TRUE(errors(A).empty());
  EXPECT_EQ(A.AS->symbolValue("vgprs"), 11);
  EXPECT_EQ(A.AS->symbolValue("sgprs"), 8);
}

TEST(MemoizingTargetParser, DirectionalLabelsNameTheNearestLabel) {
  Assembled A = assemble("1:\n"
                         "s_branch 1b\n"
                         "1:\n"
                         "s_branch 1b\n");
  EXPECT_TRUE(errors(A).empty());
  ASSERT_EQ(A.Insts.size(), 2u);
  auto Target = [](const llvm::MCInst &I) {
    return &llvm::cast<llvm::MCSymbolRefExpr>(I.getOperand(0).getExpr())->getSymbol();
  };
  EXPECT_NE(Target(A.Insts[0]), Target(A.Insts[1]));
}

TEST(MemoizingTargetParser, EveryRepeatReportsItsOwnDiagnostics) {
  Assembled A = assemble("v_mov_b32 v1, s[0:1]\n"
                         "v_mov_b32 v1, s[0:1]\n"
                         "v_mov_b32 v1, s0\n"
                         "v_mov_b32 v1, s0\n"
                         "v_mov_b32 v1, s[0:1]\n");
  std::vector<std::string> Errors = errors(A);
  ASSERT_EQ(Errors.size(), 3u);
  EXPECT_EQ(Errors[0].substr(0, 3), "1: ");
  EXPECT_EQ(Errors[1].substr(0, 3), "2: ");
  EXPECT_EQ(Errors[2].substr(0, 3), "5: ");
  EXPECT_EQ(A.Printed, (std::vector<std::string>{"v_mov_b32_e32 v1, s0", "v_mov_b32_e32 v1, s0"}));
  EXPECT_EQ(A.Lines, (std::vector<unsigned>{3, 4}));
}

/// Everything assembleFile gives, as text: events in order, each
/// instruction with its opcode and operands, assignments, diagnostics.
std::string describeAssembly(const std::string &Text, const TargetInfo &Target, bool Memoize) {
  AssemblerState AS(llvm::cantFail(TargetInfo::get(Target.processor())));
  AS.setMemoizeStatements(Memoize);
  std::vector<AsmDiagnostic> Diags;
  AssembledFile File =
      AS.assembleFile(llvm::MemoryBuffer::getMemBufferCopy(Text, "k.s"), Diags);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (const AsmEvent &E : File.Events) {
    OS << unsigned(E.K) << ' ' << E.FromExpansion << E.IsCode << ' ' << E.Line << ' '
       << E.Offset << ' ' << E.NextOffset << ' ' << E.Symbol;
    if (E.K == AsmEvent::Kind::Instruction)
      for (const llvm::MCInst &I : PackedMCInsts::unpack(File.Insts.record(E.Inst), 1)) {
        OS << " op" << I.getOpcode();
        for (const llvm::MCOperand &Op : I) {
          if (Op.isReg())
            OS << " r" << Op.getReg().id();
          else if (Op.isImm())
            OS << " i" << Op.getImm();
          else if (Op.isSFPImm())
            OS << " f" << Op.getSFPImm();
          else if (Op.isDFPImm())
            OS << " d" << Op.getDFPImm();
          else if (Op.isExpr())
            Target.asmInfo().printExpr((OS << " e"), *Op.getExpr());
        }
      }
    OS << '\n';
  }
  for (const SymbolAssignment &A : File.Assignments)
    OS << "set " << A.Symbol << ' ' << A.NextOffset << ' ' << A.Value.value_or(-1) << '\n';
  for (const AsmDiagnostic &D : Diags)
    OS << "diag " << D.Line << ':' << D.Diag.getColumnNo() << ' ' << D.Diag.getMessage() << '\n';
  return Out;
}

TEST(MemoizingTargetParser, CallSitesParseTheirOwnExpressionAsWithoutTheMemo) {
  // Statements that differ only in their last operand's expression: each
  // repeat of the text before it parses its own, as MC does, and the names
  // that make it a constant (a variable, labels MC folds), a place (`.`, a
  // directional label), a call or a broken expression take the whole parse.
  std::string Text = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n.text\nk:\n";
  for (int I = 0; I < 3; ++I) {
    std::string N = std::to_string(I);
    Text += ".Lpc_" + N + ":\n"
            "  s_add_u32 s40, s40, (target_" + N + "-.Lpc_" + N + ")&4294967295\n"
            "  s_addc_u32 s41, s41, (target_" + N + "-.Lpc_" + N + ")>>32\n";
  }
  Text += "  s_add_u32 s40, s40, (target_0-.Lpc_0)&4294967295 ; the same again\n"
          ".set var_a, 12\n"
          "  s_add_u32 s40, s40, (var_a-target_1)\n"
          "  s_add_u32 s40, s40, (var_a-4)\n"
          "  s_add_u32 s40, s40, (.Lpc_2-.Lpc_1)\n"
          "  s_add_u32 s40, s40, (.Lpc_2-.Lpc_2)+(2<<3)\n"
          "  s_add_u32 s40, s40, (.-.Lpc_1)\n"
          "1:\n"
          "  s_add_u32 s40, s40, (1b-.Lpc_1)\n"
          "  s_add_u32 s40, s40, (max(2,3)-.Lpc_1)\n"
          "  s_add_u32 s40, s40, (target_1-)\n"
          "  s_add_u32 s40, s40, (target_1-.Lpc_0))\n"
          "  s_add_u32 s40, s40, (target_2-.Lpc_0) // last\n"
          "  s_endpgm\n";
  for (int I = 0; I < 3; ++I)
    Text += "target_" + std::to_string(I) + ":\n  s_setpc_b64 s[42:43]\n";
  auto Target = llvm::cantFail(TargetInfo::get("gfx90a"));
  std::string Memoized = describeAssembly(Text, *Target, true);
  EXPECT_EQ(Memoized, describeAssembly(Text, *Target, false));
  EXPECT_NE(Memoized.find("diag"), std::string::npos) << "the broken ones are reported";
}

TEST(MemoizingTargetParser, RegisterIndicesAreWhatMCSums) {
  // Indices of names and decimals joined by + and - are summed without MC's
  // expression parser; everything else is MC's, with its own diagnostics.
  std::string Text = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n.text\nk:\n"
                     ".set a, 4\n.set b, 2\n.set c, a+b\n.set far, 0x7fffffffffffffff\n"
                     ".set lbl_alias, k\n";
  for (const char *Index :
       {"a", "a+1", " a + 1 ", "a-b+2", "a+b-1:a+b+2", "a:a+1", "c+1", "0", "7", "010", "a*2",
        "a+2*3", "(a)+1", "a+(1)", "-a+8", "a+-1", "undefined_x+1", "k+1", "lbl_alias", "a+1b",
        "a+0x2", "a+1.5", "a+99999999999999999999", "far+far", "far-far", "a-20", "a+300", "a+",
        "a+1:", "a$b", "a@x", "max(a,1)", "a+1 ; c"}) {
    Text += std::string("  v_mov_b32 v[") + Index + "], 0\n";
    Text += std::string("  s_mov_b64 s[") + Index + "], 0\n";
    Text += std::string("  v_mov_b32 v0, v[") + Index + "]\n";
  }
  Text += ".set a, 6\n  v_mov_b32 v[a+1], 0\n"
          "  v_mov_b32 v[a+1\n  v_mov_b32 v[a+1 ]], 0\n  s_endpgm\n";
  auto Target = llvm::cantFail(TargetInfo::get("gfx90a"));
  std::string Memoized = describeAssembly(Text, *Target, true);
  EXPECT_EQ(Memoized, describeAssembly(Text, *Target, false));
  EXPECT_NE(Memoized.find("diag"), std::string::npos) << "the broken ones are reported";
}

TEST(MemoizingTargetParser, CorpusAssemblesAsWithoutTheMemo) {
  // The kernels of corpus-local/ (git-ignored: third-party kernels) and the
  // lit tests' assembly, read with and without the memo.
  std::filesystem::path Root =
      (std::filesystem::path(STINKYTOFU_TEST_INPUTS) / "..").lexically_normal();
  std::vector<std::filesystem::path> Files;
  for (const std::filesystem::path &Dir : {Root / ".." / "corpus-local", Root / "lit"}) {
    std::error_code EC;
    if (!std::filesystem::is_directory(Dir, EC))
      continue;
    for (const auto &E : std::filesystem::recursive_directory_iterator(Dir, EC)) {
      std::string Name = E.path().filename().string();
      if (E.is_regular_file() &&
          (llvm::StringRef(Name).ends_with(".s") || llvm::StringRef(Name).ends_with(".s.txt")))
        Files.push_back(E.path());
    }
  }
  ASSERT_FALSE(Files.empty());
  for (const std::filesystem::path &F : Files) {
    auto Buffer = llvm::MemoryBuffer::getFile(F.string());
    ASSERT_TRUE(bool(Buffer)) << F;
    std::string Text = (*Buffer)->getBuffer().str();
    std::string Processor = findTargetDirective(Text).value_or("gfx942");
    auto Target = TargetInfo::get(Processor);
    if (!Target) {
      llvm::consumeError(Target.takeError());
      continue;
    }
    EXPECT_EQ(describeAssembly(Text, **Target, true), describeAssembly(Text, **Target, false)) << F;
  }
}

} // namespace

//===- HazardRules.td - Pipeline hazards and the wait states they need ----===//
//
// The hazards the hardware does not check (docs/hazards.md), one rule each:
// an instruction class that produces, a class that consumes, how their
// registers relate, and how many wait states must lie between them. A wait
// state is an issued instruction; `s_nop N` is N+1 of them. Rules counted
// in VALUs (Counting = "Valus") are met only by VALU instructions and fixed
// with `v_nop`.
//
// Classes and relations are names. lib/hw/HazardModel.cpp computes every
// class from LLVM MC (TSFlags, MCInstrDesc, operands, the scheduling
// model's MFMA pass count) and, where MC has no flag, from the HazardRole
// and MatrixKind records below. Sources: hw-dependencies-reference.md
// section 2 (LLVM's GCNHazardRecognizer).
//
// Standalone TableGen. The build runs
//   llvm-tblgen --dump-json HazardRules.td -o HazardRules.json
//   python3 gen_hazard_rules.py HazardRules.json HazardRules.inc
//
//===----------------------------------------------------------------------===//

// Instructions MC has no flag for, by exact mnemonic.
class HazardRole<string name, list<string> mnemonics> {
  string Name = name;
  list<string> Mnemonics = mnemonics;
}
def : HazardRole<"DivFmas", ["v_div_fmas_f32", "v_div_fmas_f64"]>;
def : HazardRole<"ReadLane", ["v_readlane_b32", "v_readfirstlane_b32"]>;
def : HazardRole<"WriteLane", ["v_writelane_b32"]>;
def : HazardRole<"SetReg", ["s_setreg_b32", "s_setreg_imm32_b32"]>;
def : HazardRole<"GetReg", ["s_getreg_b32"]>;
def : HazardRole<"Fma64", ["v_fma_f64", "v_fmac_f64", "v_fmac_f64_e32", "v_fmac_f64_e64",
                           "v_fmac_f64_dpp"]>;
// Read M0 in a way the SALU write of M0 must be one state ahead of (gfx9:
// s_movrel, interpolation, addtid DS, messages, s_ttracedata). GDS and LDS
// DMA are classes of their own (their M0 use is in MC's operands).
def : HazardRole<"M0Reader", ["s_movrels_b32", "s_movrels_b64", "s_movreld_b32",
                              "s_movreld_b64", "v_interp_p1_f32", "v_interp_p2_f32",
                              "v_interp_mov_f32", "ds_read_addtid_b32",
                              "ds_write_addtid_b32", "s_sendmsg", "s_sendmsghalt",
                              "s_ttracedata"]>;

// Matrix instructions by the pipeline they use, which LLVM keeps in a
// table of its own (not in MC): by mnemonic pattern (a Python/ECMAScript
// regular expression, matched from the start).
class MatrixKind<string name, list<string> patterns> {
  string Name = name;
  list<string> Patterns = patterns;
}
// Double-precision MFMA (DGEMM).
def : MatrixKind<"DGEMM", ["v_mfma_f64_"]>;
// gfx940 and later: the MFMAs that do not run on the XDL pipe (fp32 inputs).
def : MatrixKind<"NonXdl940", ["v_mfma_f32_[0-9x]+f32$", "v_mfma_f32_[0-9a-z_]+_f32$"]>;
// gfx1250: the one WMMA not on the XDL pipe (fp32 inputs); LLVM's
// co-execution rules do not count it as a producer.
def : MatrixKind<"NonXdlWMMA", ["v_wmma_f32_16x16x4_f32$"]>;

class HazardRule<string name, string producer, string consumer, string relation,
                 int waitStates> {
  string Name = name;
  // Classes, `|` for any of several.
  string Producer = producer;
  string Consumer = consumer;
  string Relation = relation;
  int WaitStates = waitStates;
  // When not empty, the wait states by the producing matrix instruction's
  // pass count 2, 4, 8 and 16 (WaitStates is ignored).
  list<int> ByPasses = [];
  // "States" (s_nop fixes) or "Valus" (only VALUs count; v_nop fixes).
  string Counting = "States";
}

class ByPasses<string name, string producer, string consumer, string relation,
               list<int> waits> : HazardRule<name, producer, consumer, relation, 0> {
  let ByPasses = waits;
}

// A rule counted in VALUs and fixed with v_nop.
class ValuRule<string name, string producer, string consumer, string relation,
               int valus> : HazardRule<name, producer, consumer, relation, valus> {
  let Counting = "Valus";
}

class ValuByPasses<string name, string producer, string consumer, string relation,
                   list<int> valus> : ByPasses<name, producer, consumer, relation, valus> {
  let Counting = "Valus";
}

class ProcessorHazards<string processor, list<HazardRule> rules> {
  string Processor = processor;
  list<HazardRule> Rules = rules;
  // XNACK replay: consecutive SMEM (and, on gfx9, VMEM) instructions form a
  // soft clause that must be broken where a member writes a register
  // another reads, or before a store; only when the target id does not turn
  // xnack off.
  bit SoftClauses = 0;
  bit VmemSoftClauses = 0;
  // gfx940 and later: MFMAs of the NonXdl940 kind do not use the XDL pipe
  // (before, every non-DGEMM MFMA does).
  bit SplitsXdl = 0;
  // The most wait states one s_nop gives (its immediate is 4 bits wide on
  // gfx9-gfx11, 7 bits from gfx12; LLVM fills them to the top).
  int MaxNopStates = 16;
}

//===----------------------------------------------------------------------===//
// gfx9 (hw-dependencies-reference.md 2.2).
//===----------------------------------------------------------------------===//
defvar Gfx9Common = [
  HazardRule<"VALUWriteSGPR_VMEMRead", "VALU", "VMEM", "ScalarRead", 5>,
  HazardRule<"VALUWriteVCC_DivFmas", "VALU", "DivFmas", "VccWrite", 4>,
  HazardRule<"VALUWriteSGPR_LaneSelect", "VALU", "ReadLane|WriteLane", "LaneSelect", 4>,
  HazardRule<"WriteVGPR_DPPRead", "Any", "DPP", "VgprRead", 2>,
  HazardRule<"VALUWriteEXEC_DPP", "VALU", "DPP", "ExecWrite", 5>,
  HazardRule<"SetReg_GetReg", "SetReg", "GetReg", "SameHwReg", 2>,
  HazardRule<"SetReg_SetReg", "SetReg", "SetReg", "SameHwReg", 2>,
  HazardRule<"SALUWriteM0_M0Read", "SALU", "M0Reader|GDS|LdsDma", "M0Write", 1>];

// A store of more than 64 bits holds its data VGPRs for one more state.
defvar Gfx9WideStore = [
  HazardRule<"WideStore_VALUOverwrite", "WideStoreUnlessSgprSoffset", "VALU",
             "StoreDataWrite", 1>];
// gfx940 family: one state after any wide store, two unless a buffer store
// has an SGPR soffset.
defvar Gfx940WideStore = [
  HazardRule<"WideStore_VALUOverwrite", "WideStore", "VALU", "StoreDataWrite", 1>,
  HazardRule<"WideStoreNoSgprSoffset_VALUOverwrite", "WideStoreUnlessSgprSoffset", "VALU",
             "StoreDataWrite", 2>];

// gfx908 (2.3): AGPR results of MFMA and v_accvgpr_*.
defvar Gfx908Matrix = [
  HazardRule<"VALUWriteEXEC_MFMA", "VALU", "MFMA|AccVgprWrite", "ExecWrite", 4>,
  HazardRule<"VALUWriteVGPR_MFMARead", "VALU", "MFMA|AccVgprWrite", "VgprRead", 2>,
  HazardRule<"MFMAWriteAGPR_SrcCRead", "MFMA", "MFMA", "SrcCOverlap", 2>,
  HazardRule<"MFMAWriteAGPR_SrcABRead", "MFMA", "MFMA", "SrcABOverlap", 4>,
  HazardRule<"AccVgprWrite_SrcABRead", "AccVgprWrite", "MFMA", "SrcABRead", 3>,
  ByPasses<"MFMAWriteAGPR_AccVgprRead", "MFMA", "AccVgprRead", "AgprOverlap", [4, 4, 10, 18]>,
  ByPasses<"MFMAWriteAGPR_AccVgprWrite", "MFMA", "AccVgprWrite", "AgprOverlap", [1, 1, 7, 15]>,
  HazardRule<"AccVgprWrite_SrcCRead", "AccVgprWrite", "MFMA", "SrcCRead", 1>,
  HazardRule<"AccVgprWrite_AccVgprRead", "AccVgprWrite", "AccVgprRead", "ExplicitRead", 3>,
  ByPasses<"MFMAReadSrcC_AccVgprWrite", "MFMA", "AccVgprWrite", "SrcCOverwrite", [0, 0, 5, 13]>,
  HazardRule<"AccVgprRead_MemRead", "AccVgprRead", "VMEM|DS", "VgprRead", 2>];

// gfx90a, gfx942, gfx950 (2.4, 2.5): MFMA -> MFMA, then MFMA/DOT -> VALU and
// memory. The matrix relations look at the nearest MFMA writing the
// register only.
defvar Gfx90aMatrixCommon = [
  HazardRule<"VALUWriteEXEC_MFMA", "VALUNotMFMA", "MFMA", "ExecWrite", 4>,
  HazardRule<"VALUWriteVGPR_MFMARead", "VALUNotMFMANotDOT", "MFMA", "ExplicitRead", 2>,
  HazardRule<"DGEMM4x4_SrcCFull", "DGEMM4x4", "DGEMM4x4", "SrcCFull", 4>,
  HazardRule<"DGEMM4x4_SrcCOverlap", "DGEMM4x4", "NonXdl", "SrcCOverlap", 4>,
  ByPasses<"DGEMM_SrcABOverlap", "DGEMM", "MFMA", "SrcABOverlap", [0, 6, 11, 11]>,
  HazardRule<"DGEMM_FMA64", "DGEMM", "Fma64", "Always", 2>,
  ByPasses<"DGEMMWrite_VALURead", "DGEMM", "VALUNotMFMA", "MatrixResultRead", [0, 6, 11, 11]>,
  ByPasses<"DGEMMWrite_MemRead", "DGEMM", "VMEM|DS|EXP", "MatrixResultRead", [0, 9, 18, 18]>,
  ByPasses<"DGEMMWrite_Overwrite", "DGEMM", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultWrite",
           [0, 6, 11, 11]>,
  HazardRule<"DOTWrite_Read", "DOT", "VALUNotMFMA|VMEM|DS|EXP", "DotRead", 3>,
  HazardRule<"DOTWrite_Overwrite", "DOT", "VALUNotMFMA|VMEM|DS|EXP", "DotOverwrite", 3>];

defvar Gfx90aMatrix = !listconcat(Gfx90aMatrixCommon, [
  HazardRule<"DGEMM16x16_SrcCOverlap", "DGEMM16x16", "NonXdl", "SrcCOverlap", 9>,
  ByPasses<"XDL_SrcCOverlap_XDL", "XDL", "XDL", "SrcCOverlap", [2, 2, 8, 16]>,
  ByPasses<"XDL_SrcCOverlap_DGEMM", "XDL", "DGEMM", "SrcCOverlap", [3, 3, 9, 17]>,
  ByPasses<"XDL_SrcABOverlap", "XDL", "MFMA", "SrcABOverlap", [5, 5, 11, 19]>,
  ByPasses<"MFMAWrite_Read", "XDL", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultRead",
           [5, 5, 11, 19]>,
  ByPasses<"MFMAWrite_Overwrite", "XDL", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultWrite",
           [5, 5, 11, 19]>,
  ByPasses<"MFMAReadSrcC_Overwrite", "XDL", "VALUNotMFMA|VMEM|DS|EXP", "SrcCOverwrite",
           [1, 1, 7, 15]>,
  ]);

// gfx940 family: VALU pipeline forwarding (VDecCoExec, TransForwarding).
defvar Gfx940Valu = [
  HazardRule<"VALUWriteSGPR_VALURead", "VALU", "VALU", "ExplicitScalarRead", 2>,
  HazardRule<"VALUWriteVCC_VALURead", "VALU", "VALU", "VccRead", 2>,
  HazardRule<"VALUWriteVGPR_ReadlaneRead", "VALU", "ReadLane", "Src0Read", 1>,
  HazardRule<"VALUWriteEXEC_RWLane", "VALU", "ReadLane|WriteLane", "ExecWrite", 4>,
  HazardRule<"TransForwarding", "TRANS", "VALUNotTRANS", "ExplicitRead", 1>,
  HazardRule<"DstSelForwarding", "DstSelForwarding", "VALU", "AnyOperand", 1>];

defvar Gfx942Matrix = !listconcat(Gfx90aMatrixCommon, [
  HazardRule<"DGEMM16x16_SrcCOverlap", "DGEMM16x16", "NonXdl", "SrcCOverlap", 9>,
  HazardRule<"MFMA2Pass_SrcCFull", "MFMA2Pass", "MFMA", "SrcCFull", 2>,
  ByPasses<"XDL_SrcCOverlap", "XDL", "MFMA", "SrcCOverlap", [3, 5, 9, 17]>,
  ByPasses<"SMFMA_SrcCOverlap", "SMFMA", "NonXdl", "SrcCOverlap", [2, 4, 8, 16]>,
  ByPasses<"XDL_SrcABOverlap", "XDL", "MFMA", "SrcABOverlap", [5, 7, 11, 19]>,
  ByPasses<"SMFMA_SrcABOverlap", "SMFMA", "MFMA", "SrcABOverlap", [4, 6, 10, 18]>,
  ByPasses<"XDLWrite_Read", "XDL", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultRead",
           [5, 7, 11, 19]>,
  ByPasses<"SMFMAWrite_Read", "SMFMA", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultRead",
           [4, 6, 10, 18]>,
  ByPasses<"XDLWrite_Overwrite", "XDL", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultWrite",
           [5, 7, 11, 19]>,
  ByPasses<"SMFMAWrite_Overwrite", "SMFMA", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultWrite",
           [4, 6, 10, 18]>,
  ByPasses<"XDLReadSrcC_Overwrite", "XDL", "VALUNotMFMA|VMEM|DS|EXP", "SrcCOverwrite",
           [1, 3, 7, 15]>]);

// gfx950: XDL results take one more state from 4 passes up; 16-pass DGEMM.
defvar Gfx950Matrix = !listconcat(Gfx90aMatrixCommon, [
  ByPasses<"DGEMM16x16_SrcCOverlap", "DGEMM16x16", "NonXdl", "SrcCOverlap", [0, 0, 9, 17]>,
  HazardRule<"MFMA2Pass_SrcCFull", "MFMA2Pass", "MFMA", "SrcCFull", 2>,
  ByPasses<"XDL_SrcCOverlap_XDL", "XDL", "XDL", "SrcCOverlap", [4, 6, 10, 18]>,
  ByPasses<"XDL_SrcCOverlap_NonXdl", "XDL", "NonXdl", "SrcCOverlap", [3, 6, 10, 18]>,
  ByPasses<"SMFMA_SrcCOverlap", "SMFMA", "NonXdl", "SrcCOverlap", [2, 4, 8, 16]>,
  ByPasses<"XDL_SrcABOverlap", "XDL", "MFMA", "SrcABOverlap", [5, 8, 12, 20]>,
  ByPasses<"SMFMA_SrcABOverlap", "SMFMA", "MFMA", "SrcABOverlap", [4, 6, 10, 18]>,
  ByPasses<"DGEMM16x16_SrcABOverlap", "DGEMM16x16", "MFMA", "SrcABOverlap", [0, 0, 11, 19]>,
  ByPasses<"DGEMM16x16Write_VALURead", "DGEMM16x16", "VALUNotMFMA", "MatrixResultRead",
           [0, 0, 11, 19]>,
  ByPasses<"XDLWrite_Read", "XDL", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultRead",
           [5, 8, 12, 20]>,
  ByPasses<"SMFMAWrite_Read", "SMFMA", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultRead",
           [4, 6, 10, 18]>,
  ByPasses<"XDLWrite_Overwrite", "XDL", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultWrite",
           [5, 8, 12, 20]>,
  ByPasses<"SMFMAWrite_Overwrite", "SMFMA", "VALUNotMFMA|VMEM|DS|EXP", "MatrixResultWrite",
           [4, 6, 10, 18]>,
  ByPasses<"XDLReadSrcC_Overwrite", "XDL", "VALUNotMFMA|VMEM|DS|EXP", "SrcCOverwrite",
           [1, 3, 7, 15]>]);

//===----------------------------------------------------------------------===//
// gfx10.3 and later (2.8, 2.9): no data-dependency hazards in wait states;
// a WMMA reading the result of the WMMA just before it as A or B needs a
// VALU between them.
//===----------------------------------------------------------------------===//
defvar Gfx11Matrix = [
  ValuRule<"WMMAWrite_WMMASrcAB", "WMMA", "WMMA", "MatrixSourceOverlap", 1>];

// gfx1250 co-execution (2.9): a VALU or WMMA using an XDL WMMA's result, or a
// VALU overwriting its operands, waits for VALUs (or a WMMA's whole
// latency) by the producer's latency: 4/8 cycles or 16.
defvar Gfx1250Matrix = [
  ValuByPasses<"WMMACoexec_WMMASrcAB", "DenseWMMA", "WMMA", "MatrixSourceOverlap",
               [5, 5, 5, 9]>,
  ValuByPasses<"SWMMACCoexec_WMMASrcAB", "SWMMAC", "WMMA", "MatrixSourceOverlap",
               [3, 3, 3, 5]>,
  ValuByPasses<"WMMACoexec_VALURead", "DenseWMMA", "VALUNotWMMA", "MatrixResultRead",
               [4, 4, 4, 8]>,
  ValuByPasses<"SWMMACCoexec_VALURead", "SWMMAC", "VALUNotWMMA", "MatrixResultRead",
               [2, 2, 2, 4]>,
  ValuByPasses<"WMMACoexec_VALUWrite", "DenseWMMA", "VALUNotWMMA", "MatrixOperandWrite",
               [4, 4, 4, 8]>,
  ValuByPasses<"SWMMACCoexec_VALUWrite", "SWMMAC", "VALUNotWMMA", "MatrixOperandWrite",
               [2, 2, 2, 4]>];

// gfx1250 TRANS co-execution (LLVM's fixVALUTransCoexecutionHazards): a
// VALU other than TRANS (a WMMA too) reading a TRANS result, or overwriting
// a TRANS source, needs one VALU between them. llc-22 puts a v_nop there.
defvar Gfx1250Trans = [
  ValuRule<"TransCoexec_VALURead", "TRANS", "VALUNotTRANS", "ExplicitRead", 1>,
  ValuRule<"TransCoexec_VALUWrite", "TRANS", "VALUNotTRANS", "ExplicitSourceWrite", 1>];

let SoftClauses = 1, VmemSoftClauses = 1 in {
  def : ProcessorHazards<"gfx900", !listconcat(Gfx9Common, Gfx9WideStore)>;
  def : ProcessorHazards<"gfx906", !listconcat(Gfx9Common, Gfx9WideStore)>;
  def : ProcessorHazards<"gfx908", !listconcat(Gfx9Common, Gfx9WideStore, Gfx908Matrix)>;
  def : ProcessorHazards<"gfx90a", !listconcat(Gfx9Common, Gfx9WideStore, Gfx90aMatrix)>;
  let SplitsXdl = 1 in {
    def : ProcessorHazards<"gfx942", !listconcat(Gfx9Common, Gfx940WideStore, Gfx940Valu,
                                                 Gfx942Matrix)>;
    def : ProcessorHazards<"gfx950", !listconcat(Gfx9Common, Gfx940WideStore, Gfx940Valu,
                                                 Gfx950Matrix)>;
  }
}
def : ProcessorHazards<"gfx1030", []>;
def : ProcessorHazards<"gfx1100", Gfx11Matrix>;
let MaxNopStates = 128 in {
  def : ProcessorHazards<"gfx1200", Gfx11Matrix>;
  def : ProcessorHazards<"gfx1201", Gfx11Matrix>;
  // gfx1250 has XNACK replay: SMEM soft clauses.
  let SoftClauses = 1 in
  def : ProcessorHazards<"gfx1250", !listconcat(Gfx11Matrix, Gfx1250Matrix, Gfx1250Trans)>;
}

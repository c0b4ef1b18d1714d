//===- HardwareModel.td - Per-architecture facts MC does not describe ------===//
//
// LLVM MC already knows mnemonics, operands, implicit registers and branch
// flags. Everything else the rewriter needs about a processor lives here:
// wave size, SQTT trace instructions and hazards, register budgets, HW_ID
// field layouts for s_getreg_b32, the shader clock, and default instruction
// timings/costs by mnemonic prefix.
//
// Standalone TableGen (no LLVM includes). The build runs
//   llvm-tblgen --dump-json HardwareModel.td -o HardwareModel.json
//   python3 gen_hardware_model.py HardwareModel.json HardwareModel.inc
// and lib/hw/HardwareModel.cpp includes the generated constexpr tables.
//
// Sources: docs/sqtt-reference.md sections 2.1-2.3 (trace instructions, M0
// hazard, HW_ID layouts, shader clocks), LLVM 22 llvm-mc (register names and
// ranges accepted per processor), LLVM SISchedule.td (default latencies).
//
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Hardware registers read with s_getreg_b32 (hwreg id and assembler name).
//===----------------------------------------------------------------------===//

class HwReg<string asmName, int id> {
  string AsmName = asmName;
  int Id = id;
}

def HwReg_HW_ID              : HwReg<"HW_REG_HW_ID", 4>;        // gfx9
def HwReg_XCC_ID             : HwReg<"HW_REG_XCC_ID", 20>;      // gfx940+
def HwReg_HW_ID1             : HwReg<"HW_REG_HW_ID1", 23>;      // gfx10, gfx11
def HwReg_HW_ID2             : HwReg<"HW_REG_HW_ID2", 24>;      // gfx10, gfx11
def HwReg_WAVE_HW_ID1        : HwReg<"HW_REG_WAVE_HW_ID1", 23>; // gfx12 spelling
def HwReg_WAVE_HW_ID2        : HwReg<"HW_REG_WAVE_HW_ID2", 24>; // gfx12 spelling
def HwReg_SHADER_CYCLES      : HwReg<"HW_REG_SHADER_CYCLES", 29>;    // gfx10.3, gfx11
def HwReg_SHADER_CYCLES_LO   : HwReg<"HW_REG_SHADER_CYCLES_LO", 29>; // gfx12
def HwReg_SHADER_CYCLES_HI   : HwReg<"HW_REG_SHADER_CYCLES_HI", 30>; // gfx12

//===----------------------------------------------------------------------===//
// HW_ID fields: bits [Offset + Width - 1 : Offset] of a hardware register.
// getreg immediate = ((Width - 1) << 11) | (Offset << 6) | HwReg.Id.
//===----------------------------------------------------------------------===//

class HwIdField<string name, HwReg reg, int offset, int width> {
  string Name = name;
  HwReg Reg = reg;
  int Offset = offset;
  int Width = width;
}

// gfx9 HW_ID (id 4). SE_ID is [14:13], widened to [15:13] on gfx940/942/950.
class Gfx9HwIdFields<int seWidth> {
  list<HwIdField> Ret = [
    HwIdField<"WAVE_ID",  HwReg_HW_ID,  0, 4>,
    HwIdField<"SIMD_ID",  HwReg_HW_ID,  4, 2>,
    HwIdField<"PIPE_ID",  HwReg_HW_ID,  6, 2>,
    HwIdField<"CU_ID",    HwReg_HW_ID,  8, 4>,
    HwIdField<"SH_ID",    HwReg_HW_ID, 12, 1>,
    HwIdField<"SE_ID",    HwReg_HW_ID, 13, seWidth>,
    HwIdField<"TG_ID",    HwReg_HW_ID, 16, 4>,
    HwIdField<"VM_ID",    HwReg_HW_ID, 20, 4>,
    HwIdField<"QUEUE_ID", HwReg_HW_ID, 24, 3>,
    HwIdField<"STATE_ID", HwReg_HW_ID, 27, 3>,
    HwIdField<"ME_ID",    HwReg_HW_ID, 30, 2>
  ];
}

// gfx940+ XCC_ID (id 20).
defvar Gfx940XccIdFields = [HwIdField<"XCC_ID", HwReg_XCC_ID, 0, 4>];

// gfx10+ HW_ID1 (id 23). gfx10: SE_ID [19:18]; gfx11+: SE_ID [20:18] and
// DP_RATE [31:29].
class Gfx10HwId1Fields<HwReg reg, int seWidth, bit hasDpRate> {
  list<HwIdField> Ret = !listconcat([
    HwIdField<"WAVE_ID", reg,  0, 5>,
    HwIdField<"SIMD_ID", reg,  8, 2>,
    HwIdField<"WGP_ID",  reg, 10, 4>,
    HwIdField<"SA_ID",   reg, 16, 1>,
    HwIdField<"SE_ID",   reg, 18, seWidth>
  ], !if(hasDpRate, [HwIdField<"DP_RATE", reg, 29, 3>], []<HwIdField>));
}

// gfx10+ HW_ID2 (id 24). COMPAT_LEVEL [30:29] exists on gfx10 only.
class Gfx10HwId2Fields<HwReg reg, bit hasCompatLevel> {
  list<HwIdField> Ret = !listconcat([
    HwIdField<"QUEUE_ID", reg,  0, 4>,
    HwIdField<"PIPE_ID",  reg,  4, 2>,
    HwIdField<"ME_ID",    reg,  8, 2>,
    HwIdField<"STATE_ID", reg, 12, 3>,
    HwIdField<"WG_ID",    reg, 16, 5>,
    HwIdField<"VM_ID",    reg, 24, 4>
  ], !if(hasCompatLevel, [HwIdField<"COMPAT_LEVEL", reg, 29, 2>],
                         []<HwIdField>));
}

// gfx1250: id 4 is WAVE_STATE_PRIV and id 20 WAVE_SCRATCH_BASE_LO, so there is
// no HW_ID/XCC_ID. WAVE_HW_ID1 keeps WAVE_ID/SIMD_ID/WGP_ID/SA_ID; SE and AID
// come from s_sendmsg_rtn_b32 (MSG_RTN_GET_SE_AID_ID). HW_ID2 is taken to be
// the gfx12 layout, as the reference pass treats all gfx12 targets alike.
defvar Gfx1250HwId1Fields = [
  HwIdField<"WAVE_ID", HwReg_WAVE_HW_ID1,  0, 5>,
  HwIdField<"SIMD_ID", HwReg_WAVE_HW_ID1,  8, 2>,
  HwIdField<"WGP_ID",  HwReg_WAVE_HW_ID1, 10, 4>,
  HwIdField<"SA_ID",   HwReg_WAVE_HW_ID1, 16, 1>
];

//===----------------------------------------------------------------------===//
// Shader clock sources (sqtt-reference.md 2.3).
// Kind is one of SMemTime, HwRegShaderCycles, HwRegShaderCyclesLoHi,
// GetShaderCyclesU64.
//===----------------------------------------------------------------------===//

class ShaderClock<string kind, string mnemonic, int width> {
  string Kind = kind;
  string Mnemonic = mnemonic;
  int Width = width;         // significant bits of the counter
  HwReg Reg = ?;             // hwreg read by s_getreg_b32 (low half)
  HwReg RegHi = ?;           // high half, when the counter is split
  bit NeedsLgkmWait = 0;     // SMEM result: wait on lgkmcnt before use
}

let NeedsLgkmWait = 1 in
def Clock_SMemTime : ShaderClock<"SMemTime", "s_memtime", 64>;
let Reg = HwReg_SHADER_CYCLES in
def Clock_ShaderCycles20 : ShaderClock<"HwRegShaderCycles", "s_getreg_b32", 20>;
let Reg = HwReg_SHADER_CYCLES_LO, RegHi = HwReg_SHADER_CYCLES_HI in
def Clock_ShaderCyclesLoHi
    : ShaderClock<"HwRegShaderCyclesLoHi", "s_getreg_b32", 64>;
def Clock_GetShaderCyclesU64
    : ShaderClock<"GetShaderCyclesU64", "s_get_shader_cycles_u64", 64>;

//===----------------------------------------------------------------------===//
// Instruction classes by mnemonic prefix. The longest matching prefix wins;
// the class with no prefixes is the fallback. Cycles are shader clock cycles
// (defaults follow LLVM's GFX10/GFX11 SchedModel; gfx9's quad-cycle model
// gives the same figures x4), processors may override them. CostWeight is the
// SQTT function-size weight: matrix 16, LDS 4, global/buffer/flat 10, else 1.
// The class of an instruction for timing and weights comes from MC's flags
// (hw/InstTiming.h; a unit test checks that every opcode gets the weight its
// prefix gives here). The cycle estimate takes latencies from LLVM's
// scheduling model where it has one: the latencies below are only its
// fallback; the issue cycles are ours.
//===----------------------------------------------------------------------===//

class InstClass<string name, list<string> prefixes, int issue, int latency,
                int cost> {
  string Name = name;
  list<string> Prefixes = prefixes;
  int IssueCycles = issue;
  int LatencyCycles = latency;
  int CostWeight = cost;
}

//                      Name       Prefixes                        Iss Lat Cost
def IC_Other   : InstClass<"OTHER",   [],                          1,   1,  1>;
def IC_SALU    : InstClass<"SALU",    ["s_"],                      1,   2,  1>;
def IC_Control : InstClass<"CONTROL", ["s_nop", "s_waitcnt", "s_wait_",
                                       "s_sleep", "s_endpgm", "s_barrier",
                                       "s_sendmsg", "s_ttracedata",
                                       "s_setprio", "s_delay_alu",
                                       "s_clause", "s_trap", "s_sethalt",
                                       "s_icache_inv"],            1,   1,  1>;
def IC_Branch  : InstClass<"BRANCH",  ["s_branch", "s_cbranch", "s_setpc",
                                       "s_swappc", "s_call", "s_rfe",
                                       "s_add_pc"],                1,  32,  1>;
def IC_SMEM    : InstClass<"SMEM",    ["s_load", "s_buffer_load", "s_store",
                                       "s_buffer_store", "s_scratch_",
                                       "s_atomic_", "s_buffer_atomic_",
                                       "s_dcache_", "s_memtime",
                                       "s_memrealtime", "s_atc_probe",
                                       "s_prefetch_"],             1,  20,  1>;
def IC_VALU    : InstClass<"VALU",    ["v_"],                      1,   5,  1>;
def IC_Trans   : InstClass<"TRANS",   ["v_exp_", "v_log_", "v_rcp_",
                                       "v_rsq_", "v_sqrt_", "v_sin_",
                                       "v_cos_"],                  1,  10,  1>;
def IC_MFMA    : InstClass<"MFMA",    ["v_mfma", "v_smfmac"],      4,  64, 16>;
def IC_WMMA    : InstClass<"WMMA",    ["v_wmma", "v_swmmac"],      4,  32, 16>;
def IC_LDS     : InstClass<"LDS",     ["ds_"],                     1,  20,  4>;
def IC_VMEM    : InstClass<"VMEM",    ["buffer_", "tbuffer_", "global_",
                                       "flat_", "image_", "tensor_"],
                                                                   1, 320, 10>;
def IC_Scratch : InstClass<"SCRATCH", ["scratch_"],                1, 320,  1>;
def IC_Export  : InstClass<"EXPORT",  ["exp"],                     1,  16,  1>;

// A per-processor replacement of a class's default cycles.
class CycleOverride<InstClass cls, int issue, int latency> {
  InstClass Class = cls;
  int IssueCycles = issue;
  int LatencyCycles = latency;
}

//===----------------------------------------------------------------------===//
// Memory wait counters (hw-dependencies-reference.md section 1). MC knows the
// wait instructions and encodes their fields; it does not know which
// instruction increments which counter, which counters may complete out of
// order, or the ABI's assumptions at barriers. lib/hw/WaitEvents.cpp derives
// the memory events of an instruction from MC's TSFlags (bit positions of the
// LLVM 22 SIInstrFlags below); the processors map each event to counters.
//===----------------------------------------------------------------------===//

// SIInstrFlags bit positions of LLVM 22's AMDGPU target (SIDefines.h), which
// the installed LLVM does not ship as a header. A unit test checks them
// against every MC opcode of every target (WaitCountersTest).
class TSFlagBits {
  // The ALU an instruction issues to, for s_delay_alu (InsertDelayAluPass).
  int SALU = 0;
  int VALU = 1;
  int TRANS = 16;
  int MUBUF = 17;
  int MTBUF = 18;
  int SMRD = 19;
  int MIMG = 20;
  int VIMAGE = 21;
  int VSAMPLE = 22;
  int EXP = 23;
  int FLAT = 24;
  int DS = 25;
  int LDSDIR = 28;
  int VINTERP = 29;
  int LGKM_CNT = 34;
  int FlatGlobal = 51;
  int FlatScratch = 56;
  int IsAtomicNoRet = 57;
  int IsAtomicRet = 58;
  int GWS = 62;
  // Matrix and dot products, and the SALU control format, for the timing
  // class of an instruction (hw/InstTiming.h).
  int SOPP = 6;
  int IsMAI = 54;
  int IsDOT = 55;
  int IsWMMA = 59;
  int IsSWMMAC = 63;
  // DPP reads its VGPRs early: a hazard consumer (HazardRules.td).
  int DPP = 15;
  // Comparisons, whose SCC, VCC or EXEC result a branch correlation follows
  // (analysis/BranchConditions.h).
  int SOPC = 4;
  int VOPC = 9;
}
def LLVM22TSFlags : TSFlagBits;

// A memory event (one per name of WaitEvents.h).
class WaitEvent<string name> { string Name = name; }
def Ev_VmemLoad     : WaitEvent<"VmemLoad">;     // buffer/global/scratch/image load, atomic with return
def Ev_VmemStore    : WaitEvent<"VmemStore">;    // buffer/global/scratch/image store, atomic without return
def Ev_LdsDma       : WaitEvent<"LdsDma">;       // buffer/global load into LDS (writes LDS)
def Ev_FlatLds      : WaitEvent<"FlatLds">;      // flat_* (generic address) that may reach LDS
def Ev_Lds          : WaitEvent<"Lds">;          // ds_* on LDS
def Ev_Gds          : WaitEvent<"Gds">;          // ds_* with gds, ds_gws_*
def Ev_GdsGprLock   : WaitEvent<"GdsGprLock">;   // the VGPRs a GDS op still reads
def Ev_Smem         : WaitEvent<"Smem">;         // s_load*, s_buffer_load*, s_memtime, ...
def Ev_Message      : WaitEvent<"Message">;      // s_sendmsg*
def Ev_Export       : WaitEvent<"Export">;       // exp: holds its source VGPRs
def Ev_LdsDir       : WaitEvent<"LdsDir">;       // lds_param_load, lds_direct_load
def Ev_Translation  : WaitEvent<"Translation">;  // gfx1250 xcnt: a VMEM op's address translation
def Ev_SmemTranslation : WaitEvent<"SmemTranslation">; // the same for SMEM
def Ev_TensorLds    : WaitEvent<"TensorLds">;    // tensor_load_to_lds / tensor_store_from_lds
def Ev_AsyncLds     : WaitEvent<"AsyncLds">;     // global_{load,store}_async_*_lds_*

// A counter a processor waits on, by MC's field name, and the largest count
// a wait instruction can name.
class WaitCounter<string name, int max> {
  string Name = name;
  int Max = max;
}

// Event -> counter. InOrder = 0: completions may be reported out of issue
// order, so only a wait for 0 proves one of them done.
class CounterEvent<WaitEvent event, string counter, bit inOrder = 1> {
  WaitEvent Event = event;
  string Counter = counter;
  bit InOrder = inOrder;
}

defvar Gfx9Counters = [WaitCounter<"vmcnt", 63>, WaitCounter<"expcnt", 7>,
                       WaitCounter<"lgkmcnt", 15>];
defvar Gfx10Counters = [WaitCounter<"vmcnt", 63>, WaitCounter<"expcnt", 7>,
                        WaitCounter<"lgkmcnt", 63>, WaitCounter<"vscnt", 63>];
defvar Gfx12Counters = [WaitCounter<"loadcnt", 63>, WaitCounter<"expcnt", 7>,
                        WaitCounter<"dscnt", 63>, WaitCounter<"storecnt", 63>,
                        WaitCounter<"samplecnt", 63>, WaitCounter<"bvhcnt", 7>,
                        WaitCounter<"kmcnt", 31>];
// gfx1250 adds xcnt and the LDS transfer counters; MC encodes up to 63 for
// xcnt. The tensor/async limits are not in the sources read: 15 is assumed
// (a smaller limit only makes a clamped wait stricter).
// gfx1250 has no exports, GDS or image instructions (so no expcnt,
// samplecnt, bvhcnt) and adds xcnt and the LDS transfer counters; MC encodes
// up to 63 for xcnt. The tensor/async limits are not in the sources read: 15
// is assumed (a smaller limit only makes a clamped wait stricter).
defvar Gfx1250Counters = [WaitCounter<"loadcnt", 63>, WaitCounter<"dscnt", 63>,
                          WaitCounter<"storecnt", 63>, WaitCounter<"kmcnt", 31>,
                          WaitCounter<"xcnt", 63>, WaitCounter<"tensorcnt", 15>,
                          WaitCounter<"asynccnt", 15>];

// gfx9: every VMEM access on vmcnt. A generic flat_* counts as a VMEM access
// and as FlatLds.
defvar Gfx9Events = [
  CounterEvent<Ev_VmemLoad, "vmcnt">, CounterEvent<Ev_VmemStore, "vmcnt">,
  CounterEvent<Ev_LdsDma, "vmcnt">,
  CounterEvent<Ev_FlatLds, "lgkmcnt">,
  CounterEvent<Ev_Lds, "lgkmcnt">, CounterEvent<Ev_Gds, "lgkmcnt">,
  CounterEvent<Ev_GdsGprLock, "expcnt">,
  CounterEvent<Ev_Smem, "lgkmcnt", 0>, CounterEvent<Ev_Message, "lgkmcnt">,
  CounterEvent<Ev_Export, "expcnt">];
// gfx10.3/gfx11: stores on vscnt.
defvar Gfx10Events = [
  CounterEvent<Ev_VmemLoad, "vmcnt">, CounterEvent<Ev_VmemStore, "vscnt">,
  CounterEvent<Ev_LdsDma, "vmcnt">,
  CounterEvent<Ev_FlatLds, "lgkmcnt">,
  CounterEvent<Ev_Lds, "lgkmcnt">, CounterEvent<Ev_Gds, "lgkmcnt">,
  CounterEvent<Ev_GdsGprLock, "expcnt">,
  CounterEvent<Ev_Smem, "lgkmcnt", 0>, CounterEvent<Ev_Message, "lgkmcnt">,
  CounterEvent<Ev_Export, "expcnt">, CounterEvent<Ev_LdsDir, "expcnt">];
// gfx12: no GDS any more.
defvar Gfx12Events = [
  CounterEvent<Ev_VmemLoad, "loadcnt">, CounterEvent<Ev_VmemStore, "storecnt">,
  CounterEvent<Ev_FlatLds, "dscnt">, CounterEvent<Ev_Lds, "dscnt">,
  CounterEvent<Ev_Smem, "kmcnt", 0>, CounterEvent<Ev_Message, "kmcnt">,
  CounterEvent<Ev_Export, "expcnt">, CounterEvent<Ev_LdsDir, "expcnt">];
// gfx1250: xcnt counts the address translations of VMEM instructions in
// order; SMEM translations complete out of order.
defvar Gfx1250Events = [
  CounterEvent<Ev_VmemLoad, "loadcnt">, CounterEvent<Ev_VmemStore, "storecnt">,
  CounterEvent<Ev_FlatLds, "dscnt">, CounterEvent<Ev_Lds, "dscnt">,
  CounterEvent<Ev_Smem, "kmcnt", 0>, CounterEvent<Ev_Message, "kmcnt">,
  CounterEvent<Ev_Translation, "xcnt">, CounterEvent<Ev_SmemTranslation, "xcnt", 0>,
  CounterEvent<Ev_TensorLds, "tensorcnt">, CounterEvent<Ev_AsyncLds, "asynccnt">];

// Which instructions do not fit their TSFlags class (MC has no flag for
// them): tensor and async LDS transfers (their own counters), and messages.
class WaitEventMnemonics<WaitEvent event, list<string> mnemonics> {
  WaitEvent Event = event;
  list<string> Mnemonics = mnemonics;
}
def : WaitEventMnemonics<Ev_Message, ["s_sendmsg", "s_sendmsghalt",
                                      "s_sendmsg_rtn_b32", "s_sendmsg_rtn_b64"]>;
def : WaitEventMnemonics<Ev_TensorLds, ["tensor_load_to_lds", "tensor_load_to_lds_d2",
                                        "tensor_store_from_lds",
                                        "tensor_store_from_lds_d2"]>;
def : WaitEventMnemonics<Ev_AsyncLds, [
    "global_load_async_to_lds_b8", "global_load_async_to_lds_b32",
    "global_load_async_to_lds_b64", "global_load_async_to_lds_b128",
    "global_store_async_from_lds_b8", "global_store_async_from_lds_b32",
    "global_store_async_from_lds_b64", "global_store_async_from_lds_b128",
    "cluster_load_async_to_lds_b8", "cluster_load_async_to_lds_b32",
    "cluster_load_async_to_lds_b64", "cluster_load_async_to_lds_b128"]>;

//===----------------------------------------------------------------------===//
// ALU dependency counters (hw-dependencies-reference.md section 4): the
// fields of the 16-bit immediate of `s_waitcnt_depctr` (gfx10, gfx11) and
// `s_wait_alu` (gfx12+). A field at its maximum waits for nothing; bits of no
// field are 0 in what MC assembles. The same layout on every gfx10.3+
// processor (llvm-mc-22 -show-encoding of `depctr_<field>(0)`).
//===----------------------------------------------------------------------===//

class DepCtrField<string name, int offset, int width> {
  string Name = name;   // MC's spelling after `depctr_`
  int Offset = offset;
  int Width = width;
}
def DepCtr_VaVdst  : DepCtrField<"va_vdst", 12, 4>;  // VALU VGPR writes in flight
def DepCtr_VaSdst  : DepCtrField<"va_sdst", 9, 3>;   // VALU SGPR writes in flight
def DepCtr_VaSsrc  : DepCtrField<"va_ssrc", 8, 1>;   // VALU SGPR reads in flight
def DepCtr_HoldCnt : DepCtrField<"hold_cnt", 7, 1>;
def DepCtr_VmVsrc  : DepCtrField<"vm_vsrc", 2, 3>;   // VMEM sources not yet read
def DepCtr_VaVcc   : DepCtrField<"va_vcc", 1, 1>;    // VALU VCC writes in flight
def DepCtr_SaSdst  : DepCtrField<"sa_sdst", 0, 1>;   // SALU SGPR writes in flight
defvar Gfx10DepCtrFields = [DepCtr_VaVdst, DepCtr_VaSdst, DepCtr_VaSsrc,
                            DepCtr_HoldCnt, DepCtr_VmVsrc, DepCtr_VaVcc,
                            DepCtr_SaSdst];

// A hazard LLVM resolves with a depctr wait, by the name analysis/
// DepCtrHazards.h gives its rule (LLVM's name for it).
class DepCtrHazard<string name> { string Name = name; }
// gfx1200/1201 (AMDGPUWaitSGPRHazards): a VALU has read an SGPR pair; a
// later read of it while an SALU or VALU write is in flight must wait.
def Hz_VALUReadSGPR : DepCtrHazard<"VALUReadSGPR">;
// gfx1100-1103 (GCNHazardRecognizer): a VALU reads a VGPR a TRANS wrote at
// most 5 VALUs and 1 TRANS earlier.
def Hz_VALUTransUse : DepCtrHazard<"VALUTransUse">;

//===----------------------------------------------------------------------===//
// Processors.
//===----------------------------------------------------------------------===//
// Occupancy: how many waves of a kernel one SIMD holds, as LLVM 22 counts
// them (AMDGPUBaseInfo: getMaxWavesPerEU, getVGPRAllocGranule,
// getTotalNumVGPRs, getMaxWorkGroupsPerCU, getEUsPerCU; GCNSubtarget: the
// SGPR steps of getOccupancyWithNumSGPRs; AMDGPUSubtarget: the LDS and
// workgroup-size limit of getOccupancyWithWorkGroupSizes).
// docs/pressure.md gives the rules.
//===----------------------------------------------------------------------===//

class Occupancy<int maxWaves, int granule, int file, int granule64, int file64,
                list<int> sgprSteps, int ldsBytes, int barriers> {
  int MaxWavesPerSimd = maxWaves;
  // VGPRs are allocated in blocks of VgprGranule; a SIMD holds VgprFile
  // VGPRs per lane, for the default wave size (AGPRs included where the
  // file is unified: gfx90a and later).
  int VgprGranule = granule;
  int VgprFile = file;
  // The same for wave64 on a wave32 processor (0: no wave64).
  int VgprGranuleWave64 = granule64;
  int VgprFileWave64 = file64;
  // The most SGPRs (VCC, FLAT_SCRATCH and XNACK_MASK included) that allow
  // 10, 9, 8, ... waves; more than the last allows one wave less. Empty
  // when SGPRs never limit.
  list<int> SgprWaveSteps = sgprSteps;
  // LDS the waves of one CU (gfx9) or WGP (gfx10+, WGP mode) share.
  int LdsBytes = ldsBytes;
  // Workgroups of more than one wave each hold a barrier: a CU (WGP) runs
  // at most this many of them at once.
  int WorkgroupBarriers = barriers;
  // gfx10 to gfx12: `.amdhsa_workgroup_processor_mode 0` (CU mode) keeps a
  // workgroup on one CU of its WGP: 2 SIMDs, half the LDS, 16 barriers.
  bit HasCuMode = 0;
  // SGPRs a kernel holds above .amdhsa_next_free_sgpr when its descriptor
  // reserves VCC, XNACK_MASK, FLAT_SCRATCH (LLVM's getNumExtraSGPRs: they
  // sit at the top of the SGPRs, each count includes the ones before).
  int ExtraSgprsVcc = 2;
  int ExtraSgprsXnack = 0;
  int ExtraSgprsFlatScratch = 0;
}

let ExtraSgprsXnack = 4, ExtraSgprsFlatScratch = 6 in {
  def Occupancy_Gfx9   : Occupancy<10, 4, 256, 0, 0, [80, 88, 100], 65536, 16>;
  def Occupancy_Gfx90a : Occupancy<8, 8, 512, 0, 0, [80, 88, 100], 65536, 16>;
  def Occupancy_Gfx950 : Occupancy<8, 8, 512, 0, 0, [80, 88, 100], 163840, 16>;
}
let HasCuMode = 1 in {
  def Occupancy_Gfx103 : Occupancy<16, 16, 1024, 8, 512, [], 131072, 32>;
  // gfx11 and gfx12 have 1.5 times the VGPRs of gfx10.3.
  def Occupancy_Gfx11  : Occupancy<16, 24, 1536, 12, 768, [], 131072, 32>;
}
// gfx1250 has no CU mode, and 16 barriers (what clang-22's figures show).
def Occupancy_Gfx1250 : Occupancy<16, 16, 1024, 0, 0, [], 327680, 16>;

//===----------------------------------------------------------------------===//

class Processor<string name> {
  string Name = name;
  string Generation = ?;              // gfx9, gfx10, gfx11, gfx12
  int WaveSize = ?;                   // default wavefront size
  bit HasTtraceDataImm = ?;           // s_ttracedata_imm usable for markers
  int TtraceDataImmMax = 0;           // SQTT keeps only the low 8 bits
  bit NeedsNopBeforeTtraceData = ?;   // SALU M0 write -> s_ttracedata hazard
  int MaxSGPRs = ?;                   // addressable SGPRs (s0..sN-1)
  int MaxVGPRs = 256;                 // addressable VGPRs (unified incl. AGPRs)
  bit HasAGPRs = 0;
  Occupancy Occupancy = ?;           // waves per SIMD from registers and LDS
  // VGPRs 256..1023 through s_set_vgpr_msb, and how its immediate is
  // written (hw/VgprMsbMode.h): "None", "Msb8", or "Msb16" (bits 15:8 hold
  // the state replaced; what LLVM 22 writes for gfx1250).
  string VgprMsb = "None";
  list<HwIdField> HwIdFields = ?;
  string ScopeWaveField = "WAVE_ID";  // HW_ID fields used by SQTT scope checks
  string ScopeSimdField = "SIMD_ID";
  string ScopeCuField = ?;
  string ScopeWgField = ?;
  int SeAidSendMsgId = -1;            // s_sendmsg_rtn id giving SE/AID, or -1
  ShaderClock Clock = ?;
  list<CycleOverride> CycleOverrides = [];
  list<WaitCounter> Counters = ?;     // memory wait counters
  list<CounterEvent> CounterEvents = ?;
  // s_barrier does not wait for memory itself (no AutoWaitcntBeforeBarrier
  // and no BackOffBarrier): every counter must be 0 before it.
  bit BarrierNeedsIdleCounters = 0;
  // VMEM results of one kind land in VGPRs in issue order, so a second load
  // into a VGPR needs no wait for the first (FeatureVmemWriteVgprInOrder).
  bit VmemWritesVgprInOrder = 1;
  // A pending generic flat_* keeps its two counters in order
  // (hasFlatLgkmVMemCountInOrder); without it only a wait for 0 proves
  // anything on them.
  bit FlatCountsInOrder = 1;
  // s_delay_alu waits for the matrix instructions (the WMMA class: WMMA,
  // SWMMAC) as for TRANS: they run on the XDL pipe (gfx1250; LLVM's
  // isXDLWMMA).
  bit DelayAluMatrixIsTrans = 0;
  // The wait before reading an SGPR an SALU wrote, for LLVM's
  // VALUReadSGPRHazard (AMDGPUWaitSGPRHazards, gfx1200/gfx1201: once a VALU
  // has read an SGPR, such a read needs `s_wait_alu depctr_sa_sdst(0)`).
  string SaluSgprReadWait = "";
  // An SGPR parked in a VGPR lane (v_writelane_b32 ... v_readlane_b32, as
  // LLVM spills SGPRs): what goes before the v_writelane, whose VALU read of
  // the SGPR may follow a VALU write of it, and after the v_readlane, whose
  // VALU write of the SGPR any instruction may read next (LLVM's
  // GCNHazardRecognizer and AMDGPUWaitSGPRHazards): "" when nothing.
  string SgprLaneSaveWait = "";
  string SgprLaneRestoreWait = "";
  // Which DS instructions read M0, as LLVM's code generator knows: MC's
  // assembler encodes the M0-reading DS pseudo, but where LLVM has an
  // M0-free variant of it (this suffix: DS_READ_B32 -> DS_READ_B32_gfx9,
  // has_m0_read = 0) the hardware reads M0 only for GDS (the gds bit). ""
  // when the encodings MC picks list M0 exactly (gfx10+: the M0-free pseudos).
  string DsM0FreeVariant = "";
  // The fields of the ALU dependency wait (s_waitcnt_depctr, s_wait_alu)
  // and the depctr hazard rules LLVM guards with it here (DepCtrHazard).
  list<DepCtrField> DepCtrFields = [];
  list<DepCtrHazard> DepCtrHazards = [];
}

//--- gfx9: wave64, M0-only trace data with the SALU-M0 hazard. --------------
let Generation = "gfx9", WaveSize = 64, HasTtraceDataImm = 0,
    SgprLaneRestoreWait = "s_nop 4", // VMEM reads VALU-written SGPR: 5 wait states
    DsM0FreeVariant = "_gfx9",
    NeedsNopBeforeTtraceData = 1, MaxSGPRs = 102, Clock = Clock_SMemTime,
    Occupancy = Occupancy_Gfx9,
    ScopeCuField = "CU_ID", ScopeWgField = "TG_ID",
    Counters = Gfx9Counters, CounterEvents = Gfx9Events, FlatCountsInOrder = 0 in {
  let HwIdFields = Gfx9HwIdFields<2>.Ret in {
    let BarrierNeedsIdleCounters = 1 in {
      def GFX900 : Processor<"gfx900">;
      def GFX906 : Processor<"gfx906">;
      // 32x32 MFMA: 16 passes of 4 cycles.
      let HasAGPRs = 1, CycleOverrides = [CycleOverride<IC_MFMA, 4, 64>] in
      def GFX908 : Processor<"gfx908">;
    }
    let HasAGPRs = 1, MaxVGPRs = 512, Occupancy = Occupancy_Gfx90a,
        CycleOverrides = [CycleOverride<IC_MFMA, 4, 64>] in
    def GFX90A : Processor<"gfx90a">;
  }
  // gfx940 family: SE_ID [15:13], XCC_ID, 8-pass 32x32x8 MFMA.
  // VALU reads a VALU-written SGPR: 2 wait states.
  let HwIdFields = !listconcat(Gfx9HwIdFields<3>.Ret, Gfx940XccIdFields),
      SgprLaneSaveWait = "s_nop 1", HasAGPRs = 1, MaxVGPRs = 512,
      CycleOverrides = [CycleOverride<IC_MFMA, 4, 32>] in {
    let Occupancy = Occupancy_Gfx90a in
    def GFX942 : Processor<"gfx942">;
    let Occupancy = Occupancy_Gfx950 in
    def GFX950 : Processor<"gfx950">;
  }
}

//--- gfx10+: wave32 by default, HW_ID1/HW_ID2, no M0 hazard. -----------------
let WaveSize = 32, NeedsNopBeforeTtraceData = 0, MaxSGPRs = 106,
    ScopeCuField = "WGP_ID", ScopeWgField = "WG_ID",
    DepCtrFields = Gfx10DepCtrFields in {
  // gfx10: s_ttracedata_imm assembles, but decoder support is unconfirmed.
  let Generation = "gfx10", HasTtraceDataImm = 0, Clock = Clock_ShaderCycles20,
      Counters = Gfx10Counters, CounterEvents = Gfx10Events,
      HwIdFields = !listconcat(Gfx10HwId1Fields<HwReg_HW_ID1, 2, 0>.Ret,
                               Gfx10HwId2Fields<HwReg_HW_ID2, 1>.Ret),
      Occupancy = Occupancy_Gfx103 in
  def GFX1030 : Processor<"gfx1030">;

  let HasTtraceDataImm = 1, TtraceDataImmMax = 0xFF, Occupancy = Occupancy_Gfx11 in {
    let Generation = "gfx11", Clock = Clock_ShaderCycles20,
        Counters = Gfx10Counters, CounterEvents = Gfx10Events,
        HwIdFields = !listconcat(Gfx10HwId1Fields<HwReg_HW_ID1, 3, 1>.Ret,
                                 Gfx10HwId2Fields<HwReg_HW_ID2, 0>.Ret),
        DepCtrHazards = [Hz_VALUTransUse] in
    def GFX1100 : Processor<"gfx1100">;

    let Generation = "gfx12", VmemWritesVgprInOrder = 0 in {
      // RDNA4 doubles dense WMMA throughput over RDNA3.
      let Clock = Clock_ShaderCyclesLoHi,
          HwIdFields = !listconcat(
              Gfx10HwId1Fields<HwReg_WAVE_HW_ID1, 3, 1>.Ret,
              Gfx10HwId2Fields<HwReg_WAVE_HW_ID2, 0>.Ret),
          CycleOverrides = [CycleOverride<IC_WMMA, 4, 16>],
          Counters = Gfx12Counters, CounterEvents = Gfx12Events,
          SaluSgprReadWait = "s_wait_alu depctr_sa_sdst(0)",
          SgprLaneSaveWait = "s_wait_alu depctr_va_sdst(0) depctr_sa_sdst(0)",
          SgprLaneRestoreWait = "s_wait_alu depctr_va_sdst(0)",
          DepCtrHazards = [Hz_VALUReadSGPR] in {
        def GFX1200 : Processor<"gfx1200">;
        def GFX1201 : Processor<"gfx1201">;
      }
      // SHADER_CYCLES_LO/HI assemble on gfx1250 but read 0.
      let Clock = Clock_GetShaderCyclesU64, SeAidSendMsgId = 135,
          MaxVGPRs = 1024, VgprMsb = "Msb16", Occupancy = Occupancy_Gfx1250,
          HwIdFields = !listconcat(
              Gfx1250HwId1Fields,
              Gfx10HwId2Fields<HwReg_WAVE_HW_ID2, 0>.Ret),
          CycleOverrides = [CycleOverride<IC_WMMA, 4, 16>],
          Counters = Gfx1250Counters, CounterEvents = Gfx1250Events,
          DelayAluMatrixIsTrans = 1 in
      def GFX1250 : Processor<"gfx1250">;
    }
  }
}

//===----------------------------------------------------------------------===//
// Instruction roles the rewrite passes need and MC's descriptors do not name
// (MC has no "nop", "ALU delay" or "waits on dscnt" flag). By exact
// lower-case mnemonic; a mnemonic a processor does not have simply never
// occurs there. Everything else about these instructions (operands, fields,
// encodings) still comes from MC.
//===----------------------------------------------------------------------===//

// Role is one of ScalarNop, VectorNop, DelayAlu, DepCtrWait, HwRegWrite,
// Move32, CrossLane, Barrier, CacheInvalidate, Clause, ReturningMessage,
// LaneWrite, ProgramCounterRead, BranchIfZero, BranchIfNonZero, BarrierWait,
// Sleep, InstructionPrefetch, VgprMsbSwitch,
// RelativeIndex, ConditionalWrite (hw/RenamingFacts.h; no InstRole).
class InstRole<string role, list<string> mnemonics> {
  string Role = role;
  list<string> Mnemonics = mnemonics;
}

def Role_ScalarNop  : InstRole<"ScalarNop", ["s_nop"]>;
def Role_VectorNop  : InstRole<"VectorNop", ["v_nop"]>;
def Role_DelayAlu   : InstRole<"DelayAlu", ["s_delay_alu"]>;
// Waits on the ALU dependency counters (depctr fields va_vdst, vm_vsrc, ...).
def Role_DepCtrWait : InstRole<"DepCtrWait", ["s_wait_alu", "s_waitcnt_depctr"]>;
// Where the waves of a workgroup synchronise (the release point of a split
// barrier): LDS work a wave still has in flight must finish before it.
def Role_Barrier    : InstRole<"Barrier", ["s_barrier", "s_barrier_signal",
                                           "s_barrier_signal_isfirst"]>;
// Where a wave waits for the others at a split barrier (gfx12+): not a
// release point, so no wait for LDS work goes in front of it.
def Role_BarrierWait : InstRole<"BarrierWait", ["s_barrier_wait"]>;
// Invalidates the vector caches (the acquire half of a fence or atomic):
// vector memory still in flight must finish first (LLVM waits for vmcnt 0).
def Role_CacheInvalidate : InstRole<"CacheInvalidate", [
    "buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_wbinvl1_sc", "buffer_gl0_inv",
    "buffer_gl1_inv", "buffer_inv", "global_inv"]>;
// Groups the next memory instructions into a clause (gfx10+).
def Role_Clause     : InstRole<"Clause", ["s_clause"]>;
// s_delay_alu facts LLVM's AMDGPUInsertDelayAlu keeps per opcode
// (hw-dependencies-reference.md 3.2). A message with a return value waits
// for every VALU result before it issues (va_vdst 0), as memory
// instructions do.
def Role_ReturningMessage : InstRole<"ReturningMessage", ["s_sendmsg_rtn_b32",
                                                          "s_sendmsg_rtn_b64"]>;
// Writes one lane of its destination: the destination is also a (tied)
// source operand, but no data dependency on its previous writer.
def Role_LaneWrite  : InstRole<"LaneWrite", ["v_writelane_b32"]>;
// Conditional branches taken when the register they test (MC's use: SCC,
// VCC, EXEC) is zero, or nonzero: the direction a branch correlation reads
// (analysis/BranchConditions.h).
def Role_BranchIfZero    : InstRole<"BranchIfZero", ["s_cbranch_scc0", "s_cbranch_vccz",
                                                     "s_cbranch_execz"]>;
def Role_BranchIfNonZero : InstRole<"BranchIfNonZero", ["s_cbranch_scc1", "s_cbranch_vccnz",
                                                        "s_cbranch_execnz"]>;
def Role_HwRegWrite : InstRole<"HwRegWrite", ["s_setreg_b32", "s_setreg_imm32_b32"]>;
// Reads its own address, which MC lists as no operand: its result depends
// on where it sits, so a reordering must not move it (analysis/InstructionEffects.h).
// Names a register at an index computed at run time (M0 or the GPR index
// mode added to the written register), so which register it reads or
// writes is not its operand's: renaming registers around it is not proven.
def Role_RelativeIndex : InstRole<"RelativeIndex", [
    "s_movrels_b32", "s_movrels_b64", "s_movreld_b32", "s_movreld_b64",
    "s_movrelsd_2_b32", "v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32",
    "v_movrelsd_2_b32", "s_set_gpr_idx_on", "s_set_gpr_idx_idx", "s_set_gpr_idx_mode"]>;
// Writes its destination only when SCC is 1; else it keeps its value,
// which MC's description (a plain def) does not say.
def Role_ConditionalWrite : InstRole<"ConditionalWrite", [
    "s_cmov_b32", "s_cmov_b64", "s_cmovk_i32"]>;
def Role_ProgramCounterRead : InstRole<"ProgramCounterRead", ["s_getpc_b64", "s_get_pc_i64"]>;
// Instructions gfx1250's XNACK-replay rule drains xcnt before
// (Gfx1250HazardPass): a wave that sleeps, fetches code, or switches which
// VGPRs its operands name must not leave a faulting access to be replayed.
def Role_Sleep      : InstRole<"Sleep", ["s_sleep"]>;
def Role_InstructionPrefetch : InstRole<"InstructionPrefetch", ["s_prefetch_inst_pc_rel"]>;
def Role_VgprMsbSwitch : InstRole<"VgprMsbSwitch", ["s_set_vgpr_msb"]>;
// A 32-bit copy: the destination gets the source's value.
def Role_Move32     : InstRole<"Move32", ["s_mov_b32", "v_mov_b32", "v_mov_b32_e32",
                                          "v_mov_b32_e64"]>;
// Reads a VGPR in lanes other than its own (or regardless of EXEC), so a
// lane left inactive by an earlier EXEC-masked write may be read.
def Role_CrossLane  : InstRole<"CrossLane", [
    "v_readlane_b32", "v_readfirstlane_b32", "v_permlane16_b32", "v_permlanex16_b32",
    "v_permlane64_b32", "v_permlane16_var_b32", "v_permlanex16_var_b32",
    "v_permlane16_swap_b32", "v_permlane32_swap_b32", "v_permlane_bcast_b32",
    "v_permlane_up_b32", "v_permlane_down_b32", "v_permlane_xor_b32",
    "v_permlane_idx_gen_b32", "ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32",
    "ds_bpermute_fi_b32"]>;

// DS lane shuffles that go through the LDS hardware and that SQTT address
// tracing records with their per-lane index, by the funcmap kind
// (`addr_trace_<kind>`). Other cross-lane DS instructions (ds_swizzle) carry
// no index and are not traced.
class LanePermute<string kind, list<string> mnemonics> {
  string Kind = kind;
  list<string> Mnemonics = mnemonics;
}
def : LanePermute<"ds_permute", ["ds_permute_b32"]>;
def : LanePermute<"ds_bpermute", ["ds_bpermute_b32", "ds_bpermute_fi_b32"]>;

// A wait on memory counters and the counters it waits on, by MC's field
// names: gfx9-gfx11 `s_waitcnt` (vmcnt, expcnt, lgkmcnt), gfx10-gfx11's
// single-counter forms, gfx12's split waits and gfx1250's additions.
// A wait that packs two counts into its immediate, which MC prints as one
// number, lists each counter's bit offset (Offsets) and the field Width.
class CounterWait<string mnemonic, list<string> counters,
                  list<int> offsets = [], int width = 0> {
  string Mnemonic = mnemonic;
  list<string> Counters = counters;
  list<int> Offsets = offsets;
  int Width = width;
}

def : CounterWait<"s_waitcnt", ["vmcnt", "expcnt", "lgkmcnt"]>;
def : CounterWait<"s_waitcnt_vscnt", ["vscnt"]>;
def : CounterWait<"s_waitcnt_vmcnt", ["vmcnt"]>;
def : CounterWait<"s_waitcnt_expcnt", ["expcnt"]>;
def : CounterWait<"s_waitcnt_lgkmcnt", ["lgkmcnt"]>;
def : CounterWait<"s_wait_loadcnt", ["loadcnt"]>;
def : CounterWait<"s_wait_storecnt", ["storecnt"]>;
def : CounterWait<"s_wait_samplecnt", ["samplecnt"]>;
def : CounterWait<"s_wait_bvhcnt", ["bvhcnt"]>;
def : CounterWait<"s_wait_expcnt", ["expcnt"]>;
def : CounterWait<"s_wait_dscnt", ["dscnt"]>;
def : CounterWait<"s_wait_kmcnt", ["kmcnt"]>;
// gfx12 combined waits: the first counter in bits 13:8, dscnt in 5:0.
def : CounterWait<"s_wait_loadcnt_dscnt", ["loadcnt", "dscnt"], [8, 0], 6>;
def : CounterWait<"s_wait_storecnt_dscnt", ["storecnt", "dscnt"], [8, 0], 6>;
def : CounterWait<"s_wait_xcnt", ["xcnt"]>;
def : CounterWait<"s_wait_tensorcnt", ["tensorcnt"]>;
def : CounterWait<"s_wait_asynccnt", ["asynccnt"]>;


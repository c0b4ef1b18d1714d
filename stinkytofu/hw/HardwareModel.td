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
// Processors.
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
}

//--- gfx9: wave64, M0-only trace data with the SALU-M0 hazard. --------------
let Generation = "gfx9", WaveSize = 64, HasTtraceDataImm = 0,
    NeedsNopBeforeTtraceData = 1, MaxSGPRs = 102, Clock = Clock_SMemTime,
    ScopeCuField = "CU_ID", ScopeWgField = "TG_ID" in {
  let HwIdFields = Gfx9HwIdFields<2>.Ret in {
    def GFX900 : Processor<"gfx900">;
    def GFX906 : Processor<"gfx906">;
    // 32x32 MFMA: 16 passes of 4 cycles.
    let HasAGPRs = 1, CycleOverrides = [CycleOverride<IC_MFMA, 4, 64>] in
    def GFX908 : Processor<"gfx908">;
    let HasAGPRs = 1, MaxVGPRs = 512,
        CycleOverrides = [CycleOverride<IC_MFMA, 4, 64>] in
    def GFX90A : Processor<"gfx90a">;
  }
  // gfx940 family: SE_ID [15:13], XCC_ID, 8-pass 32x32x8 MFMA.
  let HwIdFields = !listconcat(Gfx9HwIdFields<3>.Ret, Gfx940XccIdFields),
      HasAGPRs = 1, MaxVGPRs = 512,
      CycleOverrides = [CycleOverride<IC_MFMA, 4, 32>] in {
    def GFX942 : Processor<"gfx942">;
    def GFX950 : Processor<"gfx950">;
  }
}

//--- gfx10+: wave32 by default, HW_ID1/HW_ID2, no M0 hazard. -----------------
let WaveSize = 32, NeedsNopBeforeTtraceData = 0, MaxSGPRs = 106,
    ScopeCuField = "WGP_ID", ScopeWgField = "WG_ID" in {
  // gfx10: s_ttracedata_imm assembles, but decoder support is unconfirmed.
  let Generation = "gfx10", HasTtraceDataImm = 0, Clock = Clock_ShaderCycles20,
      HwIdFields = !listconcat(Gfx10HwId1Fields<HwReg_HW_ID1, 2, 0>.Ret,
                               Gfx10HwId2Fields<HwReg_HW_ID2, 1>.Ret) in
  def GFX1030 : Processor<"gfx1030">;

  let HasTtraceDataImm = 1, TtraceDataImmMax = 0xFF in {
    let Generation = "gfx11", Clock = Clock_ShaderCycles20,
        HwIdFields = !listconcat(Gfx10HwId1Fields<HwReg_HW_ID1, 3, 1>.Ret,
                                 Gfx10HwId2Fields<HwReg_HW_ID2, 0>.Ret) in
    def GFX1100 : Processor<"gfx1100">;

    let Generation = "gfx12" in {
      // RDNA4 doubles dense WMMA throughput over RDNA3.
      let Clock = Clock_ShaderCyclesLoHi,
          HwIdFields = !listconcat(
              Gfx10HwId1Fields<HwReg_WAVE_HW_ID1, 3, 1>.Ret,
              Gfx10HwId2Fields<HwReg_WAVE_HW_ID2, 0>.Ret),
          CycleOverrides = [CycleOverride<IC_WMMA, 4, 16>] in {
        def GFX1200 : Processor<"gfx1200">;
        def GFX1201 : Processor<"gfx1201">;
      }
      // SHADER_CYCLES_LO/HI assemble on gfx1250 but read 0.
      let Clock = Clock_GetShaderCyclesU64, SeAidSendMsgId = 135,
          MaxVGPRs = 1024, VgprMsb = "Msb16",
          HwIdFields = !listconcat(
              Gfx1250HwId1Fields,
              Gfx10HwId2Fields<HwReg_WAVE_HW_ID2, 0>.Ret),
          CycleOverrides = [CycleOverride<IC_WMMA, 4, 16>] in
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
// Move32, CrossLane.
class InstRole<string role, list<string> mnemonics> {
  string Role = role;
  list<string> Mnemonics = mnemonics;
}

def Role_ScalarNop  : InstRole<"ScalarNop", ["s_nop"]>;
def Role_VectorNop  : InstRole<"VectorNop", ["v_nop"]>;
def Role_DelayAlu   : InstRole<"DelayAlu", ["s_delay_alu"]>;
// Waits on the ALU dependency counters (depctr fields va_vdst, vm_vsrc, ...).
def Role_DepCtrWait : InstRole<"DepCtrWait", ["s_wait_alu", "s_waitcnt_depctr"]>;
def Role_HwRegWrite : InstRole<"HwRegWrite", ["s_setreg_b32", "s_setreg_imm32_b32"]>;
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

// A wait on memory counters and the counters it waits on, by MC's field
// names: gfx9-gfx11 `s_waitcnt` (vmcnt, expcnt, lgkmcnt), gfx10-gfx11's
// single-counter forms, gfx12's split waits and gfx1250's additions.
class CounterWait<string mnemonic, list<string> counters> {
  string Mnemonic = mnemonic;
  list<string> Counters = counters;
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
def : CounterWait<"s_wait_loadcnt_dscnt", ["loadcnt", "dscnt"]>;
def : CounterWait<"s_wait_storecnt_dscnt", ["storecnt", "dscnt"]>;
def : CounterWait<"s_wait_xcnt", ["xcnt"]>;
def : CounterWait<"s_wait_tensorcnt", ["tensorcnt"]>;
def : CounterWait<"s_wait_asynccnt", ["asynccnt"]>;

"""A GEMM-shaped kernel written the way a TensileLite generator writes one,
through the rocisa_bridge bindings: a prefetch and a loop closed by a
backward conditional long branch, every long-branch builder, and an
ActivationType=all global-write epilogue whose activation calls go through
duplicated activation-function wrappers for two vector widths."""
from rocisa_bridge import hasAddPCI64
from rocisa_bridge.asmpass import getActFuncBranchModuleName, getActFuncModuleName
from rocisa_bridge.code import KernelBody, Label, Module, TextBlock
from rocisa_bridge.container import ContinuousRegister, sgpr, vgpr
from rocisa_bridge import instruction as I

ACTIVATIONS = ["Relu", "Gelu", "Silu"]
WIDTHS = [1, 4]
TARGETS = ["gfx942", "gfx950", "gfx1250"]
# Registers: s20 activation type, s[24:25] callee address, s[26:27] return
# address, s22 address temporary, s[10:12] long-branch temporaries, s30/s31
# loop counter and flags; v40.. activation values.
TMP = ContinuousRegister(10, 3)


def signature(arch, name="gemm"):
    accum = "  .amdhsa_accum_offset 64\n" if arch.startswith("gfx9") else ""
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{arch}"\n.text\n.protected {name}\n'
            f".globl {name}\n.p2align 8\n.type {name},@function\n"
            '.section .rodata,"a",@progbits\n.p2align 6\n'
            f".amdhsa_kernel {name}\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
            "  .amdhsa_next_free_vgpr 128\n  .amdhsa_next_free_sgpr 96\n"
            f"{accum}.end_amdhsa_kernel\n.text\n{name}:\n")


class Generator:
    def __init__(self, arch):
        self.arch = arch
        self.gfx12 = arch.startswith("gfx12")
        self.counter = 0

    def fresh(self, base):
        """Fresh label names, as TensileLite's getNameInc."""
        self.counter += 1
        return f"{base}_{self.counter}"

    def wait_loads(self):
        return I.SWaitLoadCnt(0, comment="wait for global reads") if self.gfx12 else \
            I.SWaitCnt(vmcnt=0, comment="wait for global reads")

    def barrier(self, module):
        if self.gfx12:
            module.add(I.SBarrierSignal(-1))
            module.add(I.SBarrierWait(-1))
        else:
            module.add(I.SBarrier(comment="sync"))

    def global_load(self, dst):
        cls = I.GlobalLoadB128 if self.gfx12 else I.GlobalLoadDwordx4
        return cls(vgpr(dst, 4), vgpr(2, 2), "off", comment="global read")

    def matrix(self):
        if self.gfx12:
            return I.VWmmaF32_16x16x32F16(vgpr(64, 8), vgpr(72, 8), vgpr(80, 8), vgpr(64, 8))
        return I.VMfmaF32_16x16x16F16(vgpr(64, 4), vgpr(8, 2), vgpr(10, 2), vgpr(64, 4))

    def compare_type(self, index):
        cls = I.SCmpEQU32 if self.gfx12 else I.SCmpkEQU32
        return cls(sgpr(20), index, comment=f"activationType == {index}")

    # --- the activation call flow ----------------------------------------
    def act_label(self, enum, width, suffix):
        return Label(f"Activation_{enum}_VW{width}{suffix}", "")

    def call_site(self, width, suffix):
        site = Module(f"ActivationCall VW{width}{suffix}")
        dispatch = Module(getActFuncBranchModuleName())
        end = Label(f"ActivationSetPCAddrEnd_VW{width}{suffix}", "")
        targets = [Label(f"To_Activation_{e}_VW{width}{suffix}", "") for e in ACTIVATIONS]
        for index in range(1, len(ACTIVATIONS)):
            dispatch.add(self.compare_type(index))
            dispatch.add(I.SCBranchSCC1(targets[index].getLabelName(), "Branch if true"))
        for enum, target in zip(ACTIVATIONS, targets):
            dispatch.add(target)
            dispatch.addModuleAsFlatItems(
                I.SGetPositivePCOffset(24, self.act_label(enum, width, suffix),
                                       ContinuousRegister(22, 1)))
            dispatch.add(I.SBranch(end.getLabelName()))
        dispatch.add(end)
        site.add(dispatch)
        call = I.SSwapPCB64(sgpr(26, 2), sgpr(24, 2), comment="call activation")
        call.calleeFuncs = [self.act_label(e, width, suffix).getLabelName() for e in ACTIVATIONS]
        site.add(call)
        store = I.GlobalStoreB32 if self.gfx12 else I.GlobalStoreDword
        site.add(store(vgpr(2, 2), vgpr(40), "off", comment="store D"))
        return site

    def wrapper(self, width, suffix):
        wrapper = Module(getActFuncModuleName(width, 40, 20, 30))
        for enum in ACTIVATIONS:
            start = self.act_label(enum, width, suffix)
            body = Module(start.getLabelName())
            body.isCallable = True
            body.callableName = start.getLabelName()
            body.add(start)
            for v in range(width):
                if enum == "Relu":
                    body.add(I.VMaxF32(vgpr(40 + v), 0, vgpr(40 + v), comment="relu"))
                elif enum == "Gelu":
                    body.add(I.VMulF32(vgpr(40 + v), 0.5, vgpr(40 + v), comment="gelu"))
                else:
                    body.add(I.VExpF32(vgpr(40 + v), vgpr(40 + v), comment="silu"))
            body.add(I.SSetPCB64(sgpr(26, 2), comment="return"))
            wrapper.add(body)
        return wrapper

    # --- the kernel ---------------------------------------------------------
    def kernel(self):
        arch = self.arch
        kernel = KernelBody("gemm")
        kernel.addSignature(signature(arch))
        kernel.setGprs(128, 0, 96)
        body = Module("body")
        body.addComment1("prefetch")
        prefetch = Module("prefetch")
        prefetch.add(I.SMovB32(sgpr(30), 0, comment="loop counter"))
        prefetch.add(self.global_load(8))
        prefetch.add(self.wait_loads())
        body.add(prefetch)

        loop = Module("loopBody")
        loop.add(Label("LoopBeginL", "the unrolled loop"))
        loop.add(self.global_load(12))
        loop.add(self.wait_loads())
        self.barrier(loop)
        loop.add(self.matrix())
        loop.add(I.SAddU32(sgpr(30), sgpr(30), 1, comment="count"))
        loop.add(I.SCmpLtU32(sgpr(30), 8, comment="more iterations?"))
        loop.add(I.SCLongBranchScc1(Label("LoopBeginL", ""), TMP, "LoopEndL", "LoopBeginL_pos",
                                    -1, comment="loop back", arch=arch))
        body.add(loop)

        body.add(I.SCmpEQU32(sgpr(31), 0, comment="nothing to write?"))
        body.add(I.SCLongBranchScc0(Label("KernelEnd", ""), TMP, "SkipToEnd", "KernelEnd_pos0",
                                    1, arch=arch))
        body.add(I.SCLongBranchVccnz(Label("GW_Begin", ""), TMP, "NoVcc", "GW_Begin_pos", 0,
                                     arch=arch))
        body.add(I.SLongBranchPositive(Label("GW_Begin", ""), TMP, arch=arch))

        gw = Module("GlobalWriteElements")
        gw.add(Label("GW_Begin", ""))
        for width in WIDTHS:
            for suffix in ("", "_1"):
                gw.add(self.call_site(width, suffix))
        gw.add(I.SCmpEQU32(sgpr(31), 1))
        gw.add(I.SCBranchSCC0("label_SkipBack"))
        gw.add(I.SLongBranchNegative(Label("GW_Begin", ""), TMP, comment="write again"))
        gw.add(Label("SkipBack", ""))
        gw.add(I.SLongBranch(Label("KernelEnd", ""), TMP, "KernelEnd_pos1"))
        body.add(gw)
        body.add(Label("KernelEnd", ""))
        body.add(I.SEndpgm())
        for width in WIDTHS:
            for suffix in ("", "_1"):
                body.add(self.wrapper(width, suffix))
        kernel.addBody(body)
        return kernel

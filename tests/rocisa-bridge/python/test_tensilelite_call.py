"""TensileLite's call into the bridge: KernelWriter hands over the kernel's
body, its arch tuple, its name, its signature and a module-options
dictionary built from the kernel's parameters, then asks for the -O pipeline
and the assembly. The assembly must pass the wait and hazard verifiers and
assemble; an unknown option, a wrong type or an option asking for what
StinkyTofu does not do is an error, never ignored."""
import warnings

import pytest

import rocisa_bridge as rb
from rocisa_bridge import instruction as I
from rocisa_bridge.code import KernelBody, Label, Module, TextBlock
from rocisa_bridge.container import sgpr, vgpr

from gemm_generator import TARGETS, Generator, signature

ARCH_TUPLES = {"gfx942": (9, 4, 2), "gfx950": (9, 5, 0), "gfx1250": (12, 5, 0)}


def module_options(kernel, opt_level, wait_insertion):
    """The dictionary KernelWriter builds, every key it sets.

    Read (for facts only) from ROCm/rocm-libraries: the keys and values of
    projects/hipblaslt/tensilelite/Tensile/Components/Subtile/StinkyTofu.py
    (buildSubtileStinkyTofuOptions, commit 0a9372e0), which mirrors
    KernelWriter's classic option set, plus the keys the later
    KernelWriter._stinkyTofuModuleOptions adds (read from tensilelite's unit
    test of the StinkySubtile post-pass hook in Tensile.KernelWriter, as
    KernelWriter.py itself is too large for the search tool's index:
    RequiresXCntForVolatileVMEM, EnableXnackReplay,
    SwInstructionPrefetchAbsBaseSgpr, and the caller's
    EnableSwInstructionPrefetchRelStatic / EnableSwInstructionPrefetchAbs).
    The scheduler's tuning keys (scheduler-tuning-parameters.md) are not set
    by KernelWriter by default; test_scheduler_tuning_options_are_reported
    passes them."""
    return {"OptLevel": opt_level,
            "EnableRemarks": False,
            "DebugLevel": 0,
            "PrintBeforePass": "",
            "PrintAfterPass": "",
            "DebugPass": "",
            "PassOrderSnapshotJson": "",
            "EnableWaitCntInsertion": wait_insertion,
            "EnableLoopCarriedTokenDeps": True,
            "EnableESM2": kernel["EnableStinkyTofuESM2"],
            "TileA0": kernel["ThreadTile0"],
            "TileB0": kernel["ThreadTile1"],
            "TileM0": kernel["MacroTile0"],
            "wavefrontSize": kernel["WavefrontSize"],
            "SubGroup0": kernel["SubGroup0"],
            "SubGroup1": kernel["SubGroup1"],
            "WaveGroup0": kernel["MIWaveGroup"][0],
            "WaveGroup1": kernel["MIWaveGroup"][1],
            "VectorWidthA": kernel["VectorWidthA"],
            "VectorWidthB": kernel["VectorWidthB"],
            "GlobalReadVectorWidthA": kernel["GlobalReadVectorWidthA"],
            "GlobalReadVectorWidthB": kernel["GlobalReadVectorWidthB"],
            "DirectToLdsA": bool(kernel["DirectToLdsA"]),
            "DirectToLdsB": bool(kernel["DirectToLdsB"]),
            "UseSgprForGRO": kernel["_UseSgprForGRO"],
            "SwPrefetchScratchSgpr": -1,
            "RequiresXCntForVolatileVMEM": kernel["RequiresXCntForVolatileVMEM"],
            "EnableXnackReplay": False,
            "SwInstructionPrefetchAbsBaseSgpr": -1,
            "EnableSwInstructionPrefetchRelStatic": kernel["SwInstructionPrefetchRel"],
            "EnableSwInstructionPrefetchAbs": False,
            "ClusterBarrier": False,
            "PrefetchGlobalRead": kernel["PrefetchGlobalRead"],
            "PrefetchLocalRead": kernel["PrefetchLocalRead"]}


def kernel_parameters(arch):
    return {"EnableStinkyTofuESM2": False, "ThreadTile0": 2, "ThreadTile1": 2,
            "MacroTile0": 64, "WavefrontSize": 32 if arch == "gfx1250" else 64,
            "SubGroup0": 4, "SubGroup1": 4, "MIWaveGroup": [1, 1], "VectorWidthA": 1,
            "VectorWidthB": 1, "GlobalReadVectorWidthA": 8, "GlobalReadVectorWidthB": 8,
            "DirectToLdsA": False, "DirectToLdsB": 0, "_UseSgprForGRO": 0,
            "PrefetchGlobalRead": 2, "PrefetchLocalRead": 1,
            "RequiresXCntForVolatileVMEM": arch == "gfx1250",
            # Tensile's SwInstructionPrefetch: PC-relative on gfx1250.
            "SwInstructionPrefetchRel": arch == "gfx1250"}


def convert(arch, **overrides):
    kernel = Generator(arch).kernel()
    options = module_options(kernel_parameters(arch), 2, True)
    options.update(overrides)
    return kernel, rb.toStinkyTofuModule(kernel.body, ARCH_TUPLES[arch], "gemm",
                                         signature=kernel.signature, options=options)


def waits(text):
    return [line.split()[0] for line in text.splitlines()
            if line.strip().startswith(("s_waitcnt", "s_wait_"))]


@pytest.mark.parametrize("arch", TARGETS)
def test_kernelwriter_call_gives_verified_assembly(arch, llvm_mc, tmp_path):
    kernel, st = convert(arch)
    assert st.getName() == "gemm"
    st.runOptimizationPipeline()
    assembly = st.emitAssembly()
    assert ".amdhsa_kernel gemm" in assembly
    # The verifiers fail the pipeline on a missing wait or hazard.
    st.runPasses("LongBranchLoweringPass,CallTargetRecoveryPass,CFGBuilder,"
                 "WaitCntVerifier,HazardVerifier")
    code, errors = llvm_mc(assembly, arch, tmp_path)
    assert code == 0, errors


@pytest.mark.parametrize("arch", TARGETS)
def test_wait_insertion_off_keeps_the_kernels_waits(arch, llvm_mc, tmp_path):
    kernel, st = convert(arch, EnableWaitCntInsertion=False)
    st.runOptimizationPipeline()
    assembly = st.emitAssembly()
    assert waits(assembly) == waits(str(kernel))
    _, inserted = convert(arch)
    inserted.runOptimizationPipeline()
    assert waits(inserted.emitAssembly()) != waits(str(kernel))
    code, errors = llvm_mc(assembly, arch, tmp_path)
    assert code == 0, errors


def test_opt_level_sets_the_pipeline():
    _, st = convert("gfx942", OptLevel=0)
    st.runOptimizationPipeline()
    with pytest.raises(ValueError, match="-O7 is not a level"):
        st.runOptimizationPipeline(7)
    with pytest.raises(ValueError, match="'OptLevel' is 4: use 0 to 3"):
        convert("gfx942", OptLevel=4)


def test_options_are_checked_never_ignored():
    with pytest.raises(ValueError, match="unknown module option 'TileN0'"):
        convert("gfx942", TileN0=2)
    with pytest.raises(TypeError, match="'TileA0' must be an integer"):
        convert("gfx942", TileA0="2")
    with pytest.raises(TypeError, match="'PrintAfterPass' must be a string"):
        convert("gfx942", PrintAfterPass=1)
    with pytest.raises(TypeError, match="'DsReadThrottleTransitionFactor' must be a number"):
        convert("gfx1250", DsReadThrottleTransitionFactor="1")
    with pytest.raises(ValueError, match="'EnableSwInstructionPrefetchAbs' asks for "
                                         "SwInstructionPrefetchAbs"):
        convert("gfx1250", EnableSwInstructionPrefetchAbs=True)
    with pytest.raises(ValueError, match="'ClusterBarrierLoopPeriod' asks for"):
        convert("gfx1250", ClusterBarrierLoopPeriod=3)
    convert("gfx1250", ClusterBarrierLoopPeriod=1, ClusterDriftCanaryCycles=0, CloneList=[],
            RegisterAllocation=0, TDMLoadWaveSync=False, TimePasses=False)
    with pytest.raises(ValueError, match="'ArchName' is 'gfx950': the module is gfx1250"):
        convert("gfx1250", ArchName="gfx950")
    with pytest.raises(ValueError, match="contradict each other"):
        convert("gfx1250", EnableSwPrefetchInsertion=False)
    with pytest.raises(ValueError, match="'wavefrontSize' is 32: gfx942 runs wave64 only"):
        convert("gfx942", wavefrontSize=32)
    with pytest.raises(ValueError, match="'wavefrontSize' is 48"):
        convert("gfx1250", wavefrontSize=48)


def verified(st, arch, llvm_mc, tmp_path):
    """The pipeline's output: verified (a missing wait or hazard raises)
    and assembled by llvm-mc."""
    st.runOptimizationPipeline()
    assembly = st.emitAssembly()
    st.runPasses("LongBranchLoweringPass,CallTargetRecoveryPass,CFGBuilder,"
                 "WaitCntVerifier,HazardVerifier")
    code, errors = llvm_mc(assembly, arch, tmp_path)
    assert code == 0, errors
    return assembly


def tensor_loop_kernel():
    """A gfx1250 kernel whose loop refills LDS with a tensor load behind a
    workgroup barrier, as TensileLite's TDM kernels do: where
    InsertClusterBarrierPass plants its handshakes."""
    kernel = KernelBody("tdm")
    kernel.addSignature(signature("gfx1250", "tdm"))
    body = Module("body")
    body.add(TextBlock(".set sgprWaveIdx, 2\n"))
    body.add(I.SMovB32(sgpr(3), 4, comment="trips"))
    body.add(TextBlock("tensor_load_to_lds s[20:23], s[24:31]\n"))
    body.add(Label("LoopBeginL", ""))
    body.add(I.VAddF32(vgpr(7), vgpr(8), vgpr(9)))
    # The bridge's object model has no class for the tensor instructions
    # (rocisa's does); text is converted the same way.
    body.add(TextBlock("s_wait_tensorcnt 0\n"))
    for v in (10, 13, 16):
        body.add(I.VAddF32(vgpr(v), vgpr(v + 1), vgpr(v + 2)))
    body.add(I.SBarrierSignal(-1))
    body.add(I.SBarrierWait(-1))
    body.add(TextBlock("tensor_load_to_lds s[20:23], s[24:31]\n"))
    body.add(I.SSubU32(sgpr(3), sgpr(3), 1))
    body.add(I.SCmpEQU32(sgpr(3), 0))
    body.add(I.SCBranchSCC0("label_LoopBeginL"))
    body.add(TextBlock("s_wait_tensorcnt 0\n"))
    body.add(I.SEndpgm())
    kernel.addBody(body)
    return kernel


def convert_kernel(kernel, arch, **overrides):
    options = module_options(kernel_parameters(arch), 2, True)
    options.update(overrides)
    return rb.toStinkyTofuModule(kernel.body, ARCH_TUPLES[arch], "k",
                                 signature=kernel.signature, options=options)


def test_cluster_barrier_plants_the_handshakes(llvm_mc, tmp_path):
    kernel = tensor_loop_kernel()
    plain = verified(convert_kernel(kernel, "gfx1250"), "gfx1250", llvm_mc, tmp_path)
    assert "s_barrier_signal -3" not in plain
    st = convert_kernel(kernel, "gfx1250", ClusterBarrier=True)
    assert "InsertClusterBarrierPass=pgr=2" in st.optimizationPipeline()
    clustered = verified(st, "gfx1250", llvm_mc, tmp_path)
    # The kernel's first load and the loop's refill each get a handshake:
    # wave 0 signals the cluster, every wave waits for it.
    assert clustered.count("s_barrier_signal -3") == 2
    assert clustered.count("s_barrier_wait -3") == 2
    assert "s_cmp_eq_u32 s[sgprWaveIdx], 0" in clustered


def test_cluster_barrier_tuning_reaches_the_pass(llvm_mc, tmp_path):
    kernel = tensor_loop_kernel()
    st = convert_kernel(kernel, "gfx1250", ClusterBarrier=True,
                        ClusterBarrierRule3SignalLeadCycles=2, ClusterBarrierRule3Mode=2,
                        ClusterProducerDrain=1, StreamKMulticast=True)
    assert ("InsertClusterBarrierPass=pgr=2,lead=2,rule3Mode=2,producerDrain=1,"
            "streamKMulticast") in st.optimizationPipeline()
    text = verified(st, "gfx1250", llvm_mc, tmp_path)
    # Mode 2: both halves right after the workgroup wait, above the refill.
    lines = [line.split("//")[0].strip() for line in text.splitlines()]
    at = lines.index("s_barrier_wait -1")
    assert lines[at + 1] == "s_cmp_eq_u32 s[sgprWaveIdx], 0"
    # Without ClusterBarrier its tuning options change nothing.
    untouched = convert_kernel(kernel, "gfx1250", ClusterBarrierRule3Mode=2)
    assert not any(p.startswith("InsertClusterBarrierPass")
                   for p in untouched.optimizationPipeline())


def test_cluster_barrier_needs_clusters():
    _, st = convert("gfx942", ClusterBarrier=True)
    with pytest.raises(ValueError, match="InsertClusterBarrierPass: gfx942 has no workgroup "
                                         "clusters"):
        st.runOptimizationPipeline()


def long_kernel(arch):
    """A kernel past the window the CP fetches at launch (32640 bytes), so
    that the instruction prefetch has grid points to place."""
    kernel = KernelBody("long")
    kernel.addSignature(signature(arch, "long"))
    body = Module("body")
    for i in range(9000):
        body.add(I.VAddF32(vgpr(1 + i % 8), vgpr(10), vgpr(11)))
    body.add(I.SEndpgm())
    kernel.addBody(body)
    return kernel


def test_instruction_prefetch_follows_its_switches(llvm_mc, tmp_path):
    kernel = long_kernel("gfx1250")
    on = verified(convert_kernel(kernel, "gfx1250"), "gfx1250", llvm_mc, tmp_path)
    assert "s_prefetch_inst_pc_rel" in on
    for off in ({"EnableSwInstructionPrefetchRelStatic": False},
                {"EnableSwInstructionPrefetchRelStatic": False,
                 "EnableSwPrefetchInsertion": False}):
        text = verified(convert_kernel(kernel, "gfx1250", **off), "gfx1250", llvm_mc, tmp_path)
        assert "s_prefetch_inst_pc_rel" not in text
    # The older reference's switch, and its rule without one: a scratch
    # SGPR of -1 is off.
    options = module_options(kernel_parameters("gfx1250"), 2, True)
    del options["EnableSwInstructionPrefetchRelStatic"]
    scratch_off = rb.toStinkyTofuModule(kernel.body, (12, 5, 0), "long",
                                        signature=kernel.signature, options=options)
    assert "SwInstructionPrefetchRelDynamicPass" not in " ".join(
        scratch_off.optimizationPipeline())
    options["EnableSwPrefetchInsertion"] = True
    old = rb.toStinkyTofuModule(kernel.body, (12, 5, 0), "long", signature=kernel.signature,
                                options=options)
    assert "s_prefetch_inst_pc_rel" in verified(old, "gfx1250", llvm_mc, tmp_path)


def test_instruction_prefetch_needs_the_instruction():
    kernel = long_kernel("gfx942")
    st = convert_kernel(kernel, "gfx942", EnableSwInstructionPrefetchRelStatic=True)
    with pytest.raises(ValueError, match="SwInstructionPrefetchRelDynamicPass: gfx942 has no "
                                         "s_prefetch_inst_pc_rel"):
        st.runOptimizationPipeline()


@pytest.mark.parametrize("arch", TARGETS)
def test_remove_instructions_deletes_them(arch, llvm_mc, tmp_path):
    kernel = Generator(arch).kernel()
    kept = verified(convert_kernel(kernel, arch), arch, llvm_mc, tmp_path)
    assert "v_exp_f32" in kept and "v_max_f32" in kept
    st = convert_kernel(kernel, arch, RemoveInstructions="v_exp_f32, v_max_f32")
    assert "RemoveInstructionPass=v_exp_f32,v_max_f32" in st.optimizationPipeline()
    text = verified(st, arch, llvm_mc, tmp_path)
    assert "v_exp_f32" not in text and "v_max_f32" not in text
    assert "v_mul_f32" in text


def test_remove_instructions_names_only_instructions_of_the_target():
    _, st = convert("gfx942", RemoveInstructions="s_wait_alu")
    with pytest.raises(ValueError, match="RemoveInstructionPass: gfx942 has no instruction "
                                         "'s_wait_alu'"):
        st.runOptimizationPipeline()


def test_wait_repair_and_inflight_limit_reach_their_passes(llvm_mc, tmp_path):
    st = convert_kernel(tensor_loop_kernel(), "gfx1250", WaitRepairSlotsToMovePastAnchor=2,
                        TDMInflightLimit=1)
    pipeline = st.optimizationPipeline()
    assert "WaitAwareScheduleRepairPass=kSlotsToMovePastAnchor=2" in pipeline
    assert "TDMInflightGuardPass=targets=gfx1250,limit=1" in pipeline
    assert pipeline.index("StinkyWaitCntInsertionPass") < pipeline.index(
        "WaitAwareScheduleRepairPass=kSlotsToMovePastAnchor=2")
    verified(st, "gfx1250", llvm_mc, tmp_path)
    # The reference repairs only where its scheduler ran, and 0 is off.
    assert not any(p.startswith("WaitAware") for p in st.optimizationPipeline(1))
    off = convert_kernel(tensor_loop_kernel(), "gfx1250", WaitRepairSlotsAfterAnchor=0)
    assert not any(p.startswith("WaitAware") for p in off.optimizationPipeline())


SCHEDULER_TUNING = {"PrefetchLeadWmmas": 40, "DsReadPerCap": 3, "WmmaBatchSize": 2,
                    "EvenSpreadFillers": True, "DsReadThrottleTransitionFactor": 0.5,
                    "WmmaQueueDepth": 8, "LockDsReadOrder": False}


@pytest.mark.parametrize("arch", TARGETS)
def test_scheduler_tuning_options_are_reported(arch, llvm_mc, tmp_path):
    """Knobs of the reference's scheduler StinkyTofu has no counterpart for:
    accepted, applied nowhere, named on the module and in a warning."""
    kernel = Generator(arch).kernel()
    plain = verified(convert_kernel(kernel, arch), arch, llvm_mc, tmp_path)
    with pytest.warns(rb.OptionWithoutCounterpartWarning, match="PrefetchLeadWmmas"):
        st = convert_kernel(kernel, arch, EnableESM2=True, **SCHEDULER_TUNING)
    assert st.optionsWithoutCounterpart() == ["EnableESM2", *SCHEDULER_TUNING]
    assert verified(st, arch, llvm_mc, tmp_path) == plain
    # Nothing to report, no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert convert_kernel(kernel, arch).optionsWithoutCounterpart() == []

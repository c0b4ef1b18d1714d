"""TensileLite's call into the bridge: KernelWriter hands over the kernel's
body, its arch tuple, its name, its signature and a module-options
dictionary built from the kernel's parameters, then asks for the -O pipeline
and the assembly. The assembly must pass the wait and hazard verifiers and
assemble; an unknown option, a wrong type or an option asking for what
StinkyTofu does not do is an error, never ignored."""
import pytest

import rocisa_bridge as rb

from gemm_generator import TARGETS, Generator

ARCH_TUPLES = {"gfx942": (9, 4, 2), "gfx950": (9, 5, 0), "gfx1250": (12, 5, 0)}


def module_options(kernel, opt_level, wait_insertion):
    """The dictionary KernelWriter builds (every key it sets)."""
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
            "ClusterBarrier": False,
            "PrefetchGlobalRead": kernel["PrefetchGlobalRead"],
            "PrefetchLocalRead": kernel["PrefetchLocalRead"]}


def kernel_parameters(arch):
    return {"EnableStinkyTofuESM2": False, "ThreadTile0": 2, "ThreadTile1": 2,
            "MacroTile0": 64, "WavefrontSize": 32 if arch == "gfx1250" else 64,
            "SubGroup0": 4, "SubGroup1": 4, "MIWaveGroup": [1, 1], "VectorWidthA": 1,
            "VectorWidthB": 1, "GlobalReadVectorWidthA": 8, "GlobalReadVectorWidthB": 8,
            "DirectToLdsA": False, "DirectToLdsB": 0, "_UseSgprForGRO": 0,
            "PrefetchGlobalRead": 2, "PrefetchLocalRead": 1}


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
    with pytest.raises(ValueError, match="'ClusterBarrier' asks for what StinkyTofu does not do"):
        convert("gfx1250", ClusterBarrier=True)
    with pytest.raises(ValueError, match="'RemoveInstructions' asks for"):
        convert("gfx1250", RemoveInstructions="tensor_load_to_lds")
    with pytest.raises(ValueError, match="'wavefrontSize' is 32: gfx942 runs wave64 only"):
        convert("gfx942", wavefrontSize=32)
    with pytest.raises(ValueError, match="'wavefrontSize' is 48"):
        convert("gfx1250", wavefrontSize=48)

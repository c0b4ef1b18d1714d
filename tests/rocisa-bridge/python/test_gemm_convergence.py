"""Acceptance: the two paths into StinkyTofu converge.

A GEMM-shaped generator (gemm_generator.py) builds its kernel through the
bindings; rocIsaPass merges the duplicated activation wrappers. (a) The
rocisa tree is converted directly; (b) its text is read back and
LongBranchLoweringPass + CallTargetRecoveryPass recover what the text lost.
Both give the same `.stir` and the same assembly, which is the tree's text,
assembles with llvm-mc and passes the instrumentation verifier."""
import pytest

import rocisa_bridge as rb
from rocisa_bridge.asmpass import rocIsaPass, rocIsaPassOption
from rocisa_bridge.instruction import SSetPCB64, SSwapPCB64

from gemm_generator import ACTIVATIONS, TARGETS, WIDTHS, Generator

CALLABLES = [f"label_Activation_{e}_VW{w}" for w in WIDTHS for e in ACTIVATIONS]


def generated(arch):
    kernel = Generator(arch).kernel()
    option = rocIsaPassOption()
    option.removeDupFunc = True  # ActivationFuncCall
    option.removeDupAssign = False  # ActivationType == "all"
    option.numWaves = 4
    result = rocIsaPass(kernel, option)
    assert result.steps[0] == "removeDuplicatedFunction"
    assert result.duplicates.removedWrappers == len(WIDTHS)
    return kernel


@pytest.mark.parametrize("arch", TARGETS)
def test_the_generator_uses_every_builder(arch):
    kernel = Generator(arch).kernel()
    text = str(kernel)
    for name in ["SLongBranch ", "SLongBranchPositive", "SLongBranchNegative",
                 "SCLongBranchScc0", "SCLongBranchScc1", "SCLongBranchVccnz"]:
        assert any(name in m.name for m in _modules(kernel.body)), name
    assert "target branch offset" in text
    setpcs = [i for i in kernel.body.flatitems() if isinstance(i, SSetPCB64)]
    hinted = [s for s in setpcs if s.longBranchLabel]
    returns = [s for s in setpcs if not s.longBranchLabel]
    assert len(returns) == 2 * len(WIDTHS) * len(ACTIVATIONS)
    assert len(hinted) >= 5
    calls = [i for i in kernel.body.flatitems() if isinstance(i, SSwapPCB64)]
    assert len(calls) == 2 * len(WIDTHS)
    # Before merging, the second call site of each width calls the _1 bodies.
    assert calls[1].calleeFuncs[0] == "label_Activation_Relu_VW1_1"


def _modules(module):
    for item in module.items():
        if isinstance(item, rb.code.Module):
            yield item
            yield from _modules(item)


@pytest.mark.parametrize("arch", TARGETS)
def test_two_paths_converge(arch, llvm_mc, tmp_path):
    kernel = generated(arch)
    text = str(kernel)
    calls = [i for i in kernel.body.flatitems() if isinstance(i, SSwapPCB64)]
    for call, width in zip(calls, [w for w in WIDTHS for _ in (0, 1)]):
        assert call.calleeFuncs == [f"label_Activation_{e}_VW{width}" for e in ACTIVATIONS]

    direct = rb.toStinkyTofuModule(kernel, arch)
    assert direct.getFunctionNames() == ["gemm"] + CALLABLES

    recovered = rb.readAssembly(text, arch, "gemm")
    assert recovered.getFunctionNames() == ["gemm"]
    recovered.runPasses("LongBranchLoweringPass,CallTargetRecoveryPass")

    stir = direct.emitStir()
    assert recovered.getFunctionNames() == direct.getFunctionNames()
    assert recovered.emitStir() == stir
    assert stir.count("mod.call_targets") == 2 * len(WIDTHS)
    assert stir.count("mod.label") >= 5
    assembly = direct.emitAssembly()
    assert assembly == text
    assert recovered.emitAssembly() == assembly
    code, errors = llvm_mc(assembly, arch, tmp_path)
    assert code == 0, errors


@pytest.mark.parametrize("arch", TARGETS)
def test_instrumented_kernel_verifies_and_assembles(arch, llvm_mc, tmp_path):
    kernel = generated(arch)
    for st in (rb.toStinkyTofuModule(kernel, arch),
               rb.readAssembly(str(kernel), arch, "gemm")):
        st.runPasses("LongBranchLoweringPass,CallTargetRecoveryPass,"
                     "SQTTInstrumentPass(functions=10,barriers,verify)")
        assembly = st.emitAssembly()
        assert assembly != str(kernel)
        code, errors = llvm_mc(assembly, arch, tmp_path)
        assert code == 0, errors

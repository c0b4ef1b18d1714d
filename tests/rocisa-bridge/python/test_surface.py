"""The Python surface: rocisa's names, printing, deepcopy, passes, errors."""
import copy

import pytest

import rocisa_bridge as rb
from rocisa_bridge import asmpass, code, container, instruction
from rocisa_bridge.code import KernelBody, Label, Module, TextBlock
from rocisa_bridge.container import ContinuousRegister, sgpr, vgpr
from rocisa_bridge.instruction import SSetPCB64, SSwapPCB64


def test_imports_and_names():
    import rocisa_bridge.code
    import rocisa_bridge.instruction
    for name in ["Module", "Label", "TextBlock", "KernelBody", "ValueSet", "Macro", "ValueIf",
                 "ValueElseIf", "ValueEndif"]:
        assert hasattr(code, name), name
    for name in ["SSetPCB64", "SSwapPCB64", "SBranch", "SCBranchSCC0", "SCBranchSCC1",
                 "SCBranchVCCNZ", "SAddPCI64", "SLongBranch", "SLongBranchPositive",
                 "SLongBranchNegative", "SCLongBranchScc0", "SCLongBranchScc1",
                 "SCLongBranchVccnz", "SGetPositivePCOffset", "SAddI32", "SWaitCnt",
                 "VMfmaF32_16x16x16F16", "VWmmaF32_16x16x32F16", "GlobalLoadB128", "SBarrier"]:
        assert hasattr(instruction, name), name
    for name in ["rocIsaPass", "rocIsaPassOption", "rocIsaPassResult", "removeDuplicatedFunction",
                 "getActFuncModuleName", "getActFuncBranchModuleName"]:
        assert hasattr(asmpass, name), name
    assert callable(rb.toStinkyTofuModule)
    assert rocisa_bridge.code.Module is Module


def test_printing_matches_rocisa():
    assert str(Label("foo", "")) == "label_foo:\n"
    assert Label(3, "c").getLabelName() == "label_3"
    inst = SSetPCB64(sgpr(62, 2), comment="branch to label_foo")
    assert inst.longBranchLabel == ""
    inst.longBranchLabel = "label_foo"
    assert str(inst) == "s_setpc_b64 s[62:63]" + " " * 30 + " // branch to label_foo\n"
    add = instruction.SAddI32(sgpr(4), sgpr(5), 16)
    assert str(add) == "s_add_i32 s4, s5, 16\n"
    assert add.className() == "SAddI32"
    assert isinstance(add, instruction.CommonInstruction)
    assert str(instruction.SWaitCnt(vmcnt=0)) == "s_waitcnt vmcnt(0)\n"
    load = instruction.BufferLoadDwordx4(vgpr(0, 4), vgpr(4), sgpr(8, 4), 0,
                                         modifiers="offen offset:16")
    assert str(load) == "buffer_load_dwordx4 v[0:3], v4, s[8:11], 0 offen offset:16\n"
    assert str(sgpr("SrdA", 4)) == "s[sgprSrdA:sgprSrdA+3]"
    with pytest.raises(TypeError):
        instruction.SAddI32()


def test_deepcopy_keeps_metadata():
    setpc = SSetPCB64(sgpr(10, 2))
    setpc.longBranchLabel = "label_X"
    swap = SSwapPCB64(sgpr(26, 2), sgpr(24, 2))
    swap.calleeFuncs = ["label_Activation_Relu_VW1", "label_Activation_Gelu_VW1"]
    mod = Module("label_Activation_Relu_VW1")
    mod.isCallable = True
    mod.callableName = "label_Activation_Relu_VW1"
    mod.add(setpc)
    mod.add(swap)
    mod.add(instruction.SAddI32(sgpr(4), sgpr(5), 1, comment="c"))

    c_set, c_swap, c_mod = copy.deepcopy(setpc), copy.deepcopy(swap), copy.deepcopy(mod)
    assert type(c_set) is SSetPCB64 and c_set is not setpc
    assert c_set.longBranchLabel == "label_X"
    assert c_swap.calleeFuncs == swap.calleeFuncs
    c_swap.calleeFuncs = []
    assert len(swap.calleeFuncs) == 2
    assert c_mod.isCallable and c_mod.callableName == "label_Activation_Relu_VW1"
    items = c_mod.items()
    assert type(items[0]) is SSetPCB64 and items[0].longBranchLabel == "label_X"
    assert items[1].calleeFuncs == swap.calleeFuncs
    assert str(c_mod) == str(mod)
    copied_add = copy.deepcopy(mod.items()[2])
    assert type(copied_add) is instruction.SAddI32
    assert str(copied_add) == str(mod.items()[2])
    assert copy.copy(setpc).longBranchLabel == "label_X"


def test_module_editing():
    m = Module("m")
    a = m.add(Label("A", ""))
    m.add(TextBlock("// t\n"))
    m.add(Label("B", ""), 0)
    assert str(m) == "label_B:\nlabel_A:\n// t\n"
    assert m.findIndex(a) == 1
    assert m.replaceItem(a, Label("C", ""))
    assert m.removeItemsByName("// t\n") == 1
    assert str(m) == "label_B:\nlabel_C:\n"
    with pytest.raises(IndexError):
        m.getItem(9)
    assert str(m.popFirstItem()) == "label_B:\n"


def test_builders_and_targets():
    assert not rb.hasAddPCI64("gfx942")
    assert rb.hasAddPCI64((12, 5, 0))
    pos = instruction.SLongBranchPositive(Label("T", ""), ContinuousRegister(10, 3),
                                          arch="gfx1250")
    assert str(pos) == "s_add_pc_i64 label_T-.-12" + " " * 25 + " // branch to label_T\n"
    old = instruction.SLongBranchPositive(Label("T", ""), ContinuousRegister(10, 3),
                                          arch=(9, 4, 2))
    setpcs = [i for i in old.flatitems() if isinstance(i, SSetPCB64)]
    assert [s.longBranchLabel for s in setpcs] == ["label_T"]
    two = instruction.SLongBranch(Label("T", ""), ContinuousRegister(10, 3), "T_pos")
    assert [s.longBranchLabel for s in two.flatitems() if isinstance(s, SSetPCB64)] == \
        ["label_T", "label_T"]
    with pytest.raises(ValueError, match="needs 3 temporary SGPRs"):
        instruction.SLongBranchNegative(Label("T", ""), ContinuousRegister(10, 2))


def test_rocisapass_options():
    opt = asmpass.rocIsaPassOption()
    assert (opt.insertDelayAlu, opt.removeDupFunc, opt.removeDupAssign, opt.getCycles,
            opt.numWaves) == (False, True, True, True, 0)
    assert opt.doOpt()
    kernel = KernelBody("k")
    kernel.setGprs(64, 0, 32)
    opt.removeDupAssign = False
    opt.getCycles = False
    result = asmpass.rocIsaPass(kernel, opt)
    assert result.steps[0] == "removeDuplicatedFunction"
    assert result.cycles == -1 and result.maxVgpr == 64
    assert asmpass.getActFuncModuleName(4, 40, 20, 30) == "ActFunc_VW4_Sgpr40_Tmp20_30"


def test_conversion_surface():
    m = Module("k")
    m.add(Label("Start", ""))
    m.add(instruction.SAddI32(sgpr(4), sgpr(5), 1))
    m.add(instruction.SEndpgm())
    st = rb.toStinkyTofuModule(m, "gfx942", "k")
    assert isinstance(st, rb.StinkyAsmModule)
    assert st.getName() == "k"
    assert st.getFunctionNames() == ["label_Start"]
    assert st.numFunctions() == 1 and st.hasFunction("label_Start")
    assert st.emitAssembly() == str(m)
    st.runPasses("CFGBuilder")
    st.runOptimizationPipeline(0)
    assert st.emitAssembly() == str(m)
    assert st.emitObject()[:4] == b"\x7fELF"
    assert "st.func" in st.emitStir()
    with pytest.raises(ValueError, match="NoSuchPass"):
        st.runPasses("NoSuchPass")
    bad = Module("bad")
    bad.add(Label("L", ""))
    bad.add(instruction.SAddPCI64("label_L-.-12"))
    with pytest.raises(ValueError, match="rocisa SAddPCI64 in module 'bad'"):
        rb.toStinkyTofuModule(bad, "gfx942")
    with pytest.raises(ValueError, match="unknown module option"):
        rb.toStinkyTofuModule(m, "gfx942", options={"Bogus": 1})


def test_remove_duplicated_function_keeps_other_groups():
    from gemm_generator import ACTIVATIONS, Generator
    gen = Generator("gfx942")
    body = Module("body")
    for width, suffix in [(1, ""), (1, "_1"), (4, "")]:
        body.add(gen.call_site(width, suffix))
    for width, suffix in [(1, ""), (1, "_1"), (4, "")]:
        body.add(gen.wrapper(width, suffix))
    removed = asmpass.removeDuplicatedFunction(body)
    assert removed.mergedGroups == ["ActFunc_VW1_Sgpr40_Tmp20_30"]
    assert removed.removedWrappers == 1
    assert removed.renames[0] == ("label_Activation_Relu_VW1_1", "label_Activation_Relu_VW1")
    calls = [i for i in body.flatitems() if isinstance(i, SSwapPCB64)]
    vw1 = [f"label_Activation_{e}_VW1" for e in ACTIVATIONS]
    vw4 = [f"label_Activation_{e}_VW4" for e in ACTIVATIONS]
    # rocisa would rewrite the VW4 callees to the VW1 names (same underscore
    # count); only the VW1 group's own labels are renamed here.
    assert [c.calleeFuncs for c in calls] == [vw1, vw1, vw4]
    text = str(body)
    assert "label_Activation_Relu_VW1_1" not in text
    assert "s_add_i32 s22, label_Activation_Relu_VW4, 4" in text
    assert text.endswith("s_endpgm\n")

"""Instructions and the long-branch builders (rocisa.instruction).

Every class of the C++ table (InstructionClasses.def) is a subclass of
CommonInstruction taking its destinations, then its sources, positionally:
SAddI32(sgpr(4), sgpr(5), 16, comment="..."); `modifiers` is the text after
the operands ("offen offset:16").
"""
from ._rocisa_bridge import instruction as _native

_BOUND = ["BranchInstruction", "CommonInstruction", "Instruction", "SAddPCI64", "SBranch",
          "SCBranchExecNZ", "SCBranchExecZ", "SCBranchSCC0", "SCBranchSCC1", "SCBranchVCCNZ",
          "SCBranchVCCZ", "SCLongBranchScc0", "SCLongBranchScc1", "SCLongBranchVccnz",
          "SGetPositivePCOffset", "SLongBranch", "SLongBranchNegative", "SLongBranchPositive",
          "SSetPCB64", "SSwapPCB64"]
globals().update({name: getattr(_native, name) for name in _BOUND})
CommonInstruction = _native.CommonInstruction


def _make_class(name, mnemonic, num_dsts):
    def __init__(self, *operands, comment="", modifiers=""):
        if len(operands) < num_dsts:
            raise TypeError(f"{name} takes {num_dsts} destination(s)")
        CommonInstruction.__init__(self, name, mnemonic, list(operands[:num_dsts]),
                                   list(operands[num_dsts:]), comment, modifiers)

    return type(name, (CommonInstruction,), {"__init__": __init__,
                                             "__doc__": f"`{mnemonic}` ({num_dsts} dst)"})


def _copy(self, memo=None):
    """A deep copy with the class of the original's className(): an
    instruction read back from a module whose Python object is gone comes
    back as a CommonInstruction, its copy as the class it was made with."""
    cls = globals().get(self.className())
    if not (isinstance(cls, type) and issubclass(cls, CommonInstruction)):
        cls = CommonInstruction
    copy = cls.__new__(cls)
    CommonInstruction.__init__(copy, self)
    return copy


CommonInstruction.__deepcopy__ = _copy
CommonInstruction.__copy__ = _copy


for _name, _mnemonic, _num_dsts in _native.instructionClasses:
    globals()[_name] = _make_class(_name, _mnemonic, _num_dsts)


# rocisa's SWaitCnt takes counters, not an operand: the C++ factory spells them.
SWaitCnt = _native.SWaitCnt

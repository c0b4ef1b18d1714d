"""Instructions and the long-branch builders (rocisa.instruction).

Every class of the C++ table (InstructionClasses.def) is a subclass of
CommonInstruction taking its destinations, then its sources, positionally:
SAddI32(sgpr(4), sgpr(5), 16, comment="..."); `modifiers` is the text after
the operands ("offen offset:16").
"""
from ._rocisa_bridge import instruction as _native
from ._rocisa_bridge.instruction import (BranchInstruction, CommonInstruction, Instruction,
                                         SAddPCI64, SBranch, SCBranchExecNZ, SCBranchExecZ,
                                         SCBranchSCC0, SCBranchSCC1, SCBranchVCCNZ,
                                         SCBranchVCCZ, SCLongBranchScc0, SCLongBranchScc1,
                                         SCLongBranchVccnz, SGetPositivePCOffset, SLongBranch,
                                         SLongBranchNegative, SLongBranchPositive, SSetPCB64,
                                         SSwapPCB64)


def _make_class(name, mnemonic, num_dsts):
    def __init__(self, *operands, comment="", modifiers=""):
        if len(operands) < num_dsts:
            raise TypeError(f"{name} takes {num_dsts} destination(s)")
        CommonInstruction.__init__(self, name, mnemonic, list(operands[:num_dsts]),
                                   list(operands[num_dsts:]), comment, modifiers)

    def __deepcopy__(self, memo):
        # A copy of the same Python class (the C++ copy keeps every field).
        copy = type(self).__new__(type(self))
        CommonInstruction.__init__(copy, self)
        return copy

    return type(name, (CommonInstruction,), {"__init__": __init__,
                                             "__deepcopy__": __deepcopy__,
                                             "__copy__": lambda self: __deepcopy__(self, {}),
                                             "__doc__": f"`{mnemonic}` ({num_dsts} dst)"})


for _name, _mnemonic, _num_dsts in _native.instructionClasses:
    globals()[_name] = _make_class(_name, _mnemonic, _num_dsts)


# rocisa's SWaitCnt takes counters, not an operand: the C++ factory spells them.
SWaitCnt = _native.SWaitCnt

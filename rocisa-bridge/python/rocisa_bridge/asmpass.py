"""rocIsaPass and duplicate activation removal (rocisa.asmpass)."""
from ._rocisa_bridge.asmpass import (DuplicateRemoval, getActFuncBranchModuleName,
                                     getActFuncModuleName, removeDuplicatedFunction,
                                     rocIsaPass, rocIsaPassOption, rocIsaPassResult)

__all__ = ["DuplicateRemoval", "getActFuncBranchModuleName", "getActFuncModuleName",
           "removeDuplicatedFunction", "rocIsaPass", "rocIsaPassOption", "rocIsaPassResult"]

"""rocIsaPass and duplicate activation removal (rocisa.asmpass)."""
from ._rocisa_bridge import asmpass as _native

__all__ = ["DuplicateRemoval", "getActFuncBranchModuleName", "getActFuncModuleName",
           "removeDuplicatedFunction", "rocIsaPass", "rocIsaPassOption", "rocIsaPassResult"]
globals().update({name: getattr(_native, name) for name in __all__})

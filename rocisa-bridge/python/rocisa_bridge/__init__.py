"""rocisa's object model and its bridge into StinkyTofu (docs/rocisa-bridge.md).

    from rocisa_bridge import code, container, instruction, asmpass
    import rocisa_bridge as rb
    st = rb.toStinkyTofuModule(kernel, "gfx942")
"""
import sys as _sys

from . import _rocisa_bridge
from ._rocisa_bridge import (StinkyAsmModule, hasAddPCI64, readAssembly,
                             targetAssembles, toStinkyTofuModule)
from . import code, container, instruction, asmpass

for _name in ("code", "container", "instruction", "asmpass"):
    _sys.modules[__name__ + "." + _name] = globals()[_name]

__all__ = ["code", "container", "instruction", "asmpass", "StinkyAsmModule",
           "toStinkyTofuModule", "readAssembly", "hasAddPCI64", "targetAssembles"]

"""rocisa's object model and its bridge into StinkyTofu (docs/rocisa-bridge.md).

    from rocisa_bridge import code, container, instruction, asmpass
    import rocisa_bridge as rb
    st = rb.toStinkyTofuModule(kernel, "gfx942")
"""
import sys as _sys
import warnings as _warnings

from . import _rocisa_bridge
from ._rocisa_bridge import (StinkyAsmModule, hasAddPCI64, readAssembly,
                             targetAssembles)
from . import code, container, instruction, asmpass

for _name in ("code", "container", "instruction", "asmpass"):
    _sys.modules[__name__ + "." + _name] = globals()[_name]



class OptionWithoutCounterpartWarning(UserWarning):
    """Module options were accepted that tune a heuristic of the reference's
    scheduler StinkyTofu has no counterpart for; they change nothing
    (docs/rocisa-bridge.md). The module lists them:
    ``st.optionsWithoutCounterpart()``."""


def toStinkyTofuModule(module, arch, moduleName="", signature=None, options=None):
    """The kernel tree as a StinkyTofu module (docs/rocisa-bridge.md). The
    module options StinkyTofu accepts without effect are named in an
    OptionWithoutCounterpartWarning, never dropped in silence."""
    st = _rocisa_bridge.toStinkyTofuModule(module, arch, moduleName, signature, options)
    unapplied = st.optionsWithoutCounterpart()
    if unapplied:
        _warnings.warn("StinkyTofu has no counterpart for the scheduler option(s) "
                       + ", ".join(unapplied) + ": accepted, not applied",
                       OptionWithoutCounterpartWarning, stacklevel=2)
    return st


__all__ = ["code", "container", "instruction", "asmpass", "StinkyAsmModule",
           "toStinkyTofuModule", "readAssembly", "hasAddPCI64", "targetAssembles",
           "OptionWithoutCounterpartWarning"]

"""Registers (rocisa.container)."""
from ._rocisa_bridge import container as _native

__all__ = ["ContinuousRegister", "RegisterContainer", "accvgpr", "sgpr", "vgpr"]
globals().update({name: getattr(_native, name) for name in __all__})

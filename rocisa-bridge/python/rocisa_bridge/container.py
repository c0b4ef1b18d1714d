"""Registers (rocisa.container)."""
from ._rocisa_bridge.container import (ContinuousRegister, RegisterContainer, accvgpr, sgpr,
                                       vgpr)

__all__ = ["ContinuousRegister", "RegisterContainer", "accvgpr", "sgpr", "vgpr"]

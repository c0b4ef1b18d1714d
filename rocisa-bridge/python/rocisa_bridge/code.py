"""Labels, text, modules and kernels (rocisa.code)."""
from ._rocisa_bridge import code as _native

__all__ = ["Item", "KernelBody", "Label", "Macro", "Module", "TextBlock", "ValueElseIf",
           "ValueEndif", "ValueIf", "ValueSet"]
globals().update({name: getattr(_native, name) for name in __all__})

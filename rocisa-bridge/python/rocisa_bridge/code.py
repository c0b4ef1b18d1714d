"""Labels, text, modules and kernels (rocisa.code)."""
from ._rocisa_bridge.code import (Item, KernelBody, Label, Macro, Module, TextBlock,
                                  ValueElseIf, ValueEndif, ValueIf, ValueSet)

__all__ = ["Item", "KernelBody", "Label", "Macro", "Module", "TextBlock", "ValueElseIf",
           "ValueEndif", "ValueIf", "ValueSet"]

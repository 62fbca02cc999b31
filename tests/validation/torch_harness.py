# SPDX-License-Identifier: GPL-3.0-or-later
"""What every PyTorch check in the tests shares: importing torch (exit 77, "skipped", when it is missing,
unless NAPKIN_REQUIRE_TORCH=1 makes that a failure) and counting matmul FLOPs with a TorchDispatchMode."""
import os
import sys

SKIPPED = 77

try:
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
except ImportError:
    if os.environ.get("NAPKIN_REQUIRE_TORCH") == "1":
        print("torch is required (NAPKIN_REQUIRE_TORCH=1) but not installed", file=sys.stderr)
        sys.exit(1)
    print("torch not installed: skipped")
    sys.exit(SKIPPED)

aten = torch.ops.aten


class MatmulFlops(TorchDispatchMode):
    """2·m·n·k for every aten.mm, addmm, bmm and baddbmm dispatched, summed by `phase`."""

    def __init__(self):
        super().__init__()
        self.phase = "forward"
        self.flops = {"forward": 0, "backward": 0}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        packet = func._overloadpacket
        if packet in (aten.mm, aten.addmm):
            a, b = (args[0], args[1]) if packet is aten.mm else (args[1], args[2])
            self.flops[self.phase] += 2 * a.shape[0] * a.shape[1] * b.shape[1]
        elif packet in (aten.bmm, aten.baddbmm):
            a, b = (args[0], args[1]) if packet is aten.bmm else (args[1], args[2])
            self.flops[self.phase] += 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
        return func(*args, **(kwargs or {}))

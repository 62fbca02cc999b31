# SPDX-License-Identifier: GPL-3.0-or-later
"""napkin's optimizer names and optimizer implementations as torch.optim takes them, for the scripts that
run real steps (measure-run.py, measure-optimizer-temporaries.py): one table, so both run what napkin means."""
import torch

OPTIMIZERS = {  # napkin's names → torch.optim, with torch's defaults
    "sgd": lambda p, **k: torch.optim.SGD(p, lr=1e-3, **k),
    "momentum": lambda p, **k: torch.optim.SGD(p, lr=1e-3, momentum=0.9, **k),
    "adagrad": lambda p, **k: torch.optim.Adagrad(p, lr=1e-3, **k),
    "rmsprop": lambda p, **k: torch.optim.RMSprop(p, lr=1e-3, **k),
    "adam": lambda p, **k: torch.optim.Adam(p, lr=1e-3, **k),
    "adamw": lambda p, **k: torch.optim.AdamW(p, lr=1e-3, **k),
}

# --optimizer-implementation → torch.optim's arguments
IMPLEMENTATIONS = {"single-tensor": {"foreach": False}, "foreach": {"foreach": True}, "fused": {"fused": True}}


def make_optimizer(name, implementation, parameters):
    return OPTIMIZERS[name](parameters, **IMPLEMENTATIONS[implementation])

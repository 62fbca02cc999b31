#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What torch.optim's step holds above parameters, gradients and state, per implementation, on this device.

    scripts/measure-optimizer-temporaries.py [--device cuda|cpu] [--json OUT.json]

For each optimizer napkin models (SGD, SGD with momentum, Adagrad, RMSprop, Adam, AdamW) and each
implementation torch offers here (single-tensor: foreach=False; foreach=True; fused=True where the
optimizer and device have one), in fp32 and bf16: three parameters of 2·2^20, 5·2^20 and 2^20 elements
(in that order; each a whole number of the caching allocator's 512-B blocks) get random gradients; one
step makes the state; then the measured step: the device's peak allocated bytes during step() minus the
bytes allocated just before it. On CUDA that is torch.cuda.max_memory_allocated(); on the CPU the
profiler's memory events (torch 1.13's CPU allocator has no peak counter). Each row also gives the
temporaries as a multiple of the largest parameter's bytes and of all the parameters' bytes, the two
shapes napkin's models take (single-tensor: about 2 × the largest; foreach: a whole list).
"""
import argparse
import json
import sys

import torch

from torch_optimizers import IMPLEMENTATIONS, OPTIMIZERS, make_optimizer

SIZES = (2 << 20, 5 << 20, 1 << 20)  # the largest second: a single-tensor step's peak there holds the first's denom too


def peak_during(device, fn):
    if device == "cuda":
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        fn()
        torch.cuda.synchronize()
        return torch.cuda.max_memory_allocated() - before
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        fn()
    held = peak = 0  # in the order the allocator reported them (kineto's own list, as measure-run.py reads it)
    for e in prof.profiler.kineto_results.events():
        if e.name() == "[memory]":
            held += e.nbytes()
            peak = max(peak, held)
    return peak


def measure(device, dtype, name, impl):
    params = [torch.randn(n, device=device).to(dtype).requires_grad_() for n in SIZES]
    for p in params:
        p.grad = torch.randn_like(p)
    try:
        opt = make_optimizer(name, impl, params)
        opt.step()  # the state
    except (RuntimeError, TypeError, ValueError) as e:
        return {"optimizer": name, "implementation": impl, "dtype": str(dtype).split(".")[-1],
                "error": str(e).splitlines()[0][:160]}
    temp = peak_during(device, opt.step)
    element = params[0].element_size()
    largest, total = max(SIZES) * element, sum(SIZES) * element
    return {"optimizer": name, "implementation": impl, "dtype": str(dtype).split(".")[-1],
            "temporaries_bytes": temp, "largest_parameter_bytes": largest, "all_parameters_bytes": total,
            "per_largest": round(temp / largest, 4), "per_all": round(temp / total, 4)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--json")
    o = parser.parse_args()
    rows = []
    for dtype in (torch.float32, torch.bfloat16):
        for name in OPTIMIZERS:
            for impl in IMPLEMENTATIONS:
                rows.append(measure(o.device, dtype, name, impl))
                r = rows[-1]
                print(f"{r['dtype']:9} {name:9} {impl:13} " + (f"error: {r['error']}" if "error" in r else
                      f"{r['temporaries_bytes']:>12,} B = {r['per_largest']:.4f} × largest = {r['per_all']:.4f} × all"))
    doc = {"torch": torch.__version__, "device": o.device,
           "device_name": torch.cuda.get_device_name() if o.device == "cuda" else "cpu", "sizes": SIZES,
           "rows": rows}
    if o.json:
        with open(o.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

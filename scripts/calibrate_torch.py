#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Calibrates Napkin's step-time model to the kernels PyTorch calls on this CPU: times torch's own ops and
writes a hardware profile (the format engine/steptime/hardware_profile.h reads) and a one-entry GPU
catalog naming this CPU, so that

    napkin-cli account ... --gpu-catalog CATALOG --gpu this-cpu --hardware-profile PROFILE

predicts a torch eager training step here. What it measures, each the median of timed repeats after a
warm-up, on torch's current thread count:
  - GEMMs at a few shapes per dtype, fp32 and bf16, from 64³ to 1024³ and transformer-like rectangles up
    to 2048×3072×768 (--quick: up to 1024³), each shape as a linear layer's step runs it: x·Wᵀ, g·W and
    gᵀ·x (torch.mm on the transposed views F.linear and autograd pass), one entry per orientation
    ("forward", "input_gradient", "weight_gradient"), FLOP/s = 2·m·n·k / its time;
  - with --step ACCOUNT_JSON (napkin-cli account --json with a --hardware-profile, repeatable): every GEMM
    shape of that step's ledger, in its three orientations, at exactly that shape (the lookup takes an
    exact entry before it interpolates; a generic BLAS's rate does not follow m·n·k);
    and the step's optimizer update timed whole (torch.optim's own step on one parameter of the step's
    size, `optimizer_update`: its in-place ops stream faster than torch.add into a third tensor, its
    out-of-place sqrt and div slower, so no one streaming rate prices it);
  - the bandwidth of a streaming elementwise op (torch.add(a, b, out=c) on 2^24 elements), in fp32 and in
    bf16 (`elementwise`: a CPU without native bf16 arithmetic converts each element): bytes = 3·n·size;
  - the per-op cost beside the kernel: a chain of out-of-place multiplies on a one-element tensor that
    autograd records, forward and backward, per op dispatched.
Nothing is fitted: every figure is a measurement of torch's own kernels, named in the profile's sources.
The catalog entry's dense peaks are the best measured GEMM rate per dtype (so MFU reads "of the best GEMM
this CPU ran"), its memory the machine's RAM.

    /usr/bin/python3 scripts/calibrate_torch.py --profile profile.json --catalog cpu-catalog.json
"""
import argparse
import json
import os
import platform
import statistics
import time

import torch

# Square GEMMs and transformer-like rectangles (tokens × width × width); Debian's torch runs fp32 on a
# generic BLAS (slow: the largest shapes would take seconds each), bf16 on oneDNN.
GEMM_SHAPES = [(64, 64, 64), (128, 128, 128), (256, 256, 256), (512, 512, 512), (1024, 1024, 1024),
               (1024, 256, 256), (2048, 768, 768), (2048, 3072, 768)]
QUICK_SHAPES = GEMM_SHAPES[:5]
DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}
DEVICE_ID = "this-cpu"


def median_seconds(fn, repeats, min_seconds=0.05):
    """Median of `repeats` timings of fn(), each a batch of calls lasting at least min_seconds / repeats."""
    fn()
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    calls = max(1, int(min_seconds / repeats / once))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples)


ORIENTATIONS = ("forward", "input_gradient", "weight_gradient")


def orientation_seconds(m, n, k, dtype, repeats, gen):
    """Median seconds of each of the three GEMMs a linear layer's training step runs at forward shape
    (m tokens, n outputs, k inputs), as F.linear and autograd call them (torch 1.13's mm_mat1_backward and
    mm_mat2_backward, tools/autograd/derivatives.yaml): y = x·Wᵀ (forward), gx = g·W (input gradient),
    gW = gᵀ·x (weight gradient, W being a transposed view). Each 2·m·n·k FLOPs."""
    x = torch.randn(m, k, generator=gen).to(dtype)
    w = torch.randn(n, k, generator=gen).to(dtype)
    g = torch.randn(m, n, generator=gen).to(dtype)
    r = repeats if 2 * m * n * k < 1e9 else min(repeats, 3)
    return {"forward": median_seconds(lambda: torch.mm(x, w.t()), r),
            "input_gradient": median_seconds(lambda: torch.mm(g, w), r),
            "weight_gradient": median_seconds(lambda: torch.mm(g.t(), x), r)}


def gemm_rates(repeats, shapes, dtypes=None, skip_large_fp32=True):
    """Per shape and dtype, one entry per orientation (forward, input_gradient, weight_gradient): each of
    the three GEMMs at its own rate, FLOP/s = 2·m·n·k / its median time. A generic BLAS (Debian's torch
    1.13 runs fp32 through aten/src/ATen/native/cpu/BlasKernel.cpp's loops) runs them at rates up to 2×
    apart at one shape (docs/benchmarks.md, "Where the CPU prediction went wrong"), so they are never
    averaged."""
    rates = []
    gen = torch.Generator().manual_seed(0)
    for name, dtype in DTYPES.items():
        if dtypes is not None and name not in dtypes:
            continue
        for m, n, k in shapes:
            if skip_large_fp32 and name == "fp32" and m * n * k > 2048 * 768 * 768:
                continue  # seconds per GEMM on a generic BLAS; larger fp32 GEMMs hold the largest's rate
            for orientation, seconds in orientation_seconds(m, n, k, dtype, repeats, gen).items():
                rates.append({"dtype": name, "m": m, "n": n, "k": k, "orientation": orientation,
                              "flops_per_second": 2 * m * n * k / seconds})
    return rates


def step_gemm_shapes(account):
    """{dtype: [(m, n, k), ...]}: the distinct unbatched GEMM shapes of a step, from `napkin-cli account
    --json`'s step_time.ledger rows (their `gemm` field: the forward shape) and precision.compute; or of a
    serving setting, from `napkin-cli infer --json`'s prefill_time and decode_time ledgers and gpu.compute.
    Batched GEMMs (attention's bmm) have other transposes than a linear layer's and are left to
    interpolation."""
    dtype = account.get("precision", {}).get("compute") or account.get("gpu", {}).get("compute", "fp32")
    rows = []
    for key in ("step_time", "prefill_time", "decode_time"):
        rows += (account.get(key) or {}).get("ledger") or []
    shapes = []
    for row in rows:
        gemm = row.get("gemm")
        if gemm and gemm.get("batch", 1) == 1:
            shape = (int(gemm["m"]), int(gemm["n"]), int(gemm["k"]))
            if shape not in shapes:
                shapes.append(shape)
    return {dtype: shapes} if dtype in DTYPES else {}


def step_gemm_rates(repeats, accounts):
    """Every orientation of every GEMM shape the steps in `accounts` run, measured at exactly that shape
    (the profile's lookup takes an exact entry before it interpolates)."""
    wanted = {}
    for account in accounts:
        for dtype, shapes in step_gemm_shapes(account).items():
            wanted.setdefault(dtype, [])
            wanted[dtype] += [s for s in shapes if s not in wanted[dtype]]
    rates = []
    for dtype, shapes in wanted.items():
        rates += gemm_rates(repeats, shapes, dtypes=(dtype,), skip_large_fp32=False)
    return rates


def decode_gemm_shapes(account):
    """{dtype: [(m, n, k), ...]}: the distinct unbatched GEMM shapes of `napkin-cli infer --json`'s
    decode_time ledger (none for an account document)."""
    dtype = account.get("gpu", {}).get("compute", "fp32")
    shapes = []
    for row in (account.get("decode_time") or {}).get("ledger") or []:
        gemm = row.get("gemm")
        if gemm and gemm.get("batch", 1) == 1:
            shape = (int(gemm["m"]), int(gemm["n"]), int(gemm["k"]))
            if shape not in shapes:
                shapes.append(shape)
    return {dtype: shapes} if dtype in DTYPES and shapes else {}


COLD_POOL_BYTES = 256 << 20


def cold_forward_rates(repeats, shapes, dtype):
    """Each shape's forward GEMM (x·Wᵀ) as one decode step runs it: every weight matrix read once, from
    memory. Timed over a pool of distinct W, at least 256 MiB together (and 4 matrices), so that none is in a
    cache when its turn comes; FLOP/s = 2·m·n·k / (the pool's time / its size). Timed hot, on one W over and
    over, a small-M GEMM on this CPU's generic BLAS ran in 377 µs at [1×512]·[512×1376] fp32, and cold in
    579 µs: about the hot time plus its weights' bytes at the streaming bandwidth (197 µs), so a decode
    step's GEMMs are timed as decode runs them (docs/benchmarks.md, "Twelfth session: inference time")."""
    rates = []
    gen = torch.Generator().manual_seed(0)
    for m, n, k in shapes:
        size = n * k * torch.tensor([], dtype=DTYPES[dtype]).element_size()
        pool = [torch.randn(n, k, generator=gen).to(DTYPES[dtype]) for _ in range(max(4, COLD_POOL_BYTES // size))]
        x = torch.randn(m, k, generator=gen).to(DTYPES[dtype])

        def run():
            for w in pool:
                torch.mm(x, w.t())
        seconds = median_seconds(run, min(repeats, 3), min_seconds=0) / len(pool)
        rates.append({"dtype": dtype, "m": m, "n": n, "k": k, "orientation": "forward",
                      "flops_per_second": 2 * m * n * k / seconds})
        del pool
    return rates


def update_rate(account, repeats):
    """The step's optimizer update timed whole, as torch.optim runs it (scripts/torch_optimizers.py), on one
    parameter of the step's size in the update's dtype: {optimizer, implementation, dtype, elements,
    bytes_per_second} with the bytes the ledger counts for it (its optimizer row's bytes per element), or
    None where the step has no such row or torch cannot run it here."""
    from torch_optimizers import make_optimizer  # this script's folder
    precision, optimizer = account.get("precision", {}), account.get("optimizer", {})
    dtype = "fp32" if precision.get("master_weights", "none") != "none" else precision.get("optimizer_state")
    if dtype in (None, "none"):
        dtype = precision.get("parameters")
    elements = account.get("parameters_per_gpu") or account.get("parameters")
    rows = [r for r in ((account.get("step_time") or {}).get("ledger") or [])
            if r["phase"] == "optimizer" and r["name"].split(" ")[1:2] == ["update"]]
    if dtype not in DTYPES or not elements or len(rows) != 1 or optimizer.get("implementation") == "fused":
        return None
    bytes_per_element = rows[0]["bytes"] / elements
    gen = torch.Generator().manual_seed(0)
    param = torch.nn.Parameter(torch.randn(int(elements), generator=gen).to(DTYPES[dtype]))
    param.grad = torch.randn(int(elements), generator=gen).to(DTYPES[dtype]) * 1e-3
    opt = make_optimizer(optimizer["name"], optimizer["implementation"], [param])
    opt.step()  # makes the state
    seconds = median_seconds(opt.step, min(repeats, 3) if elements > 1e7 else repeats)
    return {"optimizer": optimizer["name"], "implementation": optimizer["implementation"], "dtype": dtype,
            "elements": float(int(elements)), "bytes_per_second": bytes_per_element * elements / seconds}


def add_step_measurements(profile, repeats, accounts):
    """The profile with the steps' own GEMM shapes (replacing any entry of the same shape,
    orientation and dtype); its source says so."""
    extra = step_gemm_rates(repeats, accounts)
    keys = {(g["dtype"], g["m"], g["n"], g["k"], g["orientation"]) for g in extra}
    profile["gemm"] = [g for g in profile["gemm"]
                       if (g["dtype"], g["m"], g["n"], g["k"], g.get("orientation", "any")) not in keys] + extra
    if extra:
        profile["source"] += (f"; and each of the step's own {len(extra) // 3} GEMM shape(s) in its three "
                              "orientations (from napkin-cli account --json's step_time.ledger)")
    # A decode step's GEMMs (napkin-cli infer --json) timed cold, replacing their hot forward entries.
    cold = []
    for account in accounts:
        for dtype, shapes in decode_gemm_shapes(account).items():
            done = {(g["m"], g["n"], g["k"]) for g in cold if g["dtype"] == dtype}
            cold += cold_forward_rates(repeats, [s for s in shapes if s not in done], dtype)
    if cold:
        keys = {(g["dtype"], g["m"], g["n"], g["k"], "forward") for g in cold}
        profile["gemm"] = [g for g in profile["gemm"]
                           if (g["dtype"], g["m"], g["n"], g["k"], g.get("orientation", "any")) not in keys] + cold
        profile["source"] += (f"; the decode step's {len(cold)} GEMM shape(s) timed cold (x·Wᵀ over a pool of "
                              "distinct W of at least 256 MiB, each weight read once from memory, as one "
                              "decode step reads them)")
    updates = profile.get("optimizer_update", [])
    for account in accounts:
        rate = update_rate(account, repeats)
        if rate and not any(all(u[k] == rate[k] for k in ("optimizer", "implementation", "dtype", "elements"))
                            for u in updates):
            updates.append(rate)
    if updates:
        profile["optimizer_update"] = updates
        profile["source"] += ("; the step's optimizer update timed whole (torch.optim's step on one parameter "
                              "of the step's size)")
    return profile


def bandwidth(repeats, dtype=torch.float32, elements=1 << 24):
    """Bytes read + written per second by torch.add(a, b, out=c): 3 · elements · element size."""
    a, b = torch.rand(elements).to(dtype), torch.rand(elements).to(dtype)
    c = torch.empty(elements, dtype=dtype)
    seconds = median_seconds(lambda: torch.add(a, b, out=c), repeats)
    return 3 * elements * a.element_size() / seconds


def dispatch_seconds(repeats, ops=200):
    """What one op of a training step pays beside its kernel: an out-of-place multiply on a one-element
    tensor that autograd records (an output allocated, a graph node made), `ops` of them in a chain, then
    their backward through autograd's engine (each MulBackward0 node dispatches one mul): (forward +
    backward) / (2 · ops). An in-place x.add_(1), what this measured before, allocates nothing and records
    nothing: 1.8 µs here against 2.8 µs forward and 2.7 µs backward per op (2026-12-07, one thread)."""
    w = torch.zeros(1, requires_grad=True)

    def chain():
        y = w
        for _ in range(ops):
            y = y * 1.0
        y.backward()
    return median_seconds(chain, repeats, min_seconds=0.2) / (2 * ops)


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "CPU"


def calibrate(repeats=7, quick=False, accounts=()):
    """(profile, catalog) as dicts, measured now; `accounts`: napkin-cli account --json answers whose
    step's GEMM shapes are timed too."""
    threads = torch.get_num_threads()
    shapes = QUICK_SHAPES if quick else GEMM_SHAPES
    gemms = gemm_rates(repeats, shapes)
    bw = bandwidth(repeats)
    elementwise = [{"dtype": name, "bytes_per_second": bandwidth(repeats, dtype)} for name, dtype in DTYPES.items()]
    overhead = dispatch_seconds(repeats)
    method = (f"scripts/calibrate_torch.py: torch {torch.__version__} on {threads} thread(s), medians of "
              f"{repeats} timed repeats after a warm-up")
    profile = {
        "format": "napkin-hardware-profile", "version": 1, "device": DEVICE_ID, "device_name": cpu_name(),
        "source": method + "; GEMMs: x·Wᵀ, g·W, gᵀ·x by torch.mm at " + str(len(shapes)) + " shapes per dtype",
        "gemm": gemms,
        "memory_bandwidth_bytes_per_second": bw,
        "bandwidth_source": "torch.add(a, b, out=c) on 2^24 fp32 elements, 3 × 4 B per element",
        "elementwise": elementwise,
        "per_op_overhead_seconds": overhead,
        "overhead_source": ("a chain of y = y * 1.0 on a one-element tensor autograd records, forward and "
                            "backward, per op dispatched: torch's dispatch, output allocation and autograd"),
    }
    add_step_measurements(profile, repeats, accounts)
    best = {name: max(g["flops_per_second"] for g in profile["gemm"] if g["dtype"] == name) for name in DTYPES}
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    catalog = {"version": 1, "gpus": [{
        "id": DEVICE_ID, "name": cpu_name(), "kind": "unified",
        "source": method + ": dense peaks are the best torch.mm rate measured per dtype, memory the RAM",
        "memory_bytes": float(ram), "memory_bandwidth_bytes_per_second": bw,
        "dense_peak_flops_per_second": {"fp32": best["fp32"], "bf16": best["bf16"]},
    }]}
    return profile, catalog


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", required=True)
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="GEMMs up to 1024³ only")
    parser.add_argument("--step", action="append", default=[], metavar="ACCOUNT_JSON",
                        help="napkin-cli account --json output (with --hardware-profile): time its step's GEMM "
                             "shapes exactly (repeatable)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    accounts = []
    for path in args.step:
        with open(path) as f:
            accounts.append(json.load(f))
    profile, catalog = calibrate(args.repeats, args.quick, accounts)
    with open(args.profile, "w") as f:
        json.dump(profile, f, indent=2)
    with open(args.catalog, "w") as f:
        json.dump(catalog, f, indent=2)
    print(f"wrote {args.profile} and {args.catalog}")


if __name__ == "__main__":
    main()

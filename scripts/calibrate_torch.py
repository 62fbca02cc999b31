#!/usr/bin/env python3
"""Calibrates Napkin's step-time model to the kernels PyTorch calls on this CPU: times torch's own ops and
writes a hardware profile (the format engine/steptime/hardware_profile.h reads) and a one-entry GPU
catalog naming this CPU, so that

    napkin-cli account ... --gpu-catalog CATALOG --gpu this-cpu --hardware-profile PROFILE

predicts a torch eager training step here. What it measures, each the median of timed repeats after a
warm-up, on torch's current thread count:
  - GEMMs at a few shapes per dtype, fp32 and bf16, from 64³ to 1024³ and transformer-like rectangles up
    to 2048×3072×768 (--quick: up to 1024³), each shape as a linear layer's step runs it: x·Wᵀ, g·W and
    gᵀ·x (torch.mm on the transposed views F.linear and autograd pass), FLOP/s = 3·2·m·n·k / their time;
  - the bandwidth of a streaming elementwise op (torch.add(a, b, out=c) on 2^24 elements), in fp32 and in
    bf16 (`elementwise`: a CPU without native bf16 arithmetic converts each element): bytes = 3·n·size;
  - the per-op dispatch cost: an in-place add on a one-element tensor (x.add_(1)).
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


def gemm_rates(repeats, shapes):
    """Per shape and dtype, the three GEMMs a linear layer's training step runs at that shape, as
    F.linear and autograd call them: y = x·Wᵀ (forward), gx = g·W (input gradient), gW = gᵀ·x (weight
    gradient): FLOP/s = 3 · 2·m·n·k / their summed median time."""
    rates = []
    gen = torch.Generator().manual_seed(0)
    for name, dtype in DTYPES.items():
        for m, n, k in shapes:
            if name == "fp32" and m * n * k > 2048 * 768 * 768:
                continue  # seconds per GEMM on a generic BLAS; larger fp32 GEMMs hold the largest's rate
            x = torch.randn(m, k, generator=gen).to(dtype)
            w = torch.randn(n, k, generator=gen).to(dtype)
            g = torch.randn(m, n, generator=gen).to(dtype)
            r = repeats if 2 * m * n * k < 1e9 else min(repeats, 3)
            seconds = (median_seconds(lambda: torch.mm(x, w.t()), r)
                       + median_seconds(lambda: torch.mm(g, w), r)
                       + median_seconds(lambda: torch.mm(g.t(), x), r))
            rates.append({"dtype": name, "m": m, "n": n, "k": k, "flops_per_second": 3 * 2 * m * n * k / seconds})
    return rates


def bandwidth(repeats, dtype=torch.float32, elements=1 << 24):
    """Bytes read + written per second by torch.add(a, b, out=c): 3 · elements · element size."""
    a, b = torch.rand(elements).to(dtype), torch.rand(elements).to(dtype)
    c = torch.empty(elements, dtype=dtype)
    seconds = median_seconds(lambda: torch.add(a, b, out=c), repeats)
    return 3 * elements * a.element_size() / seconds


def dispatch_seconds(repeats):
    x = torch.zeros(1)
    return median_seconds(lambda: x.add_(1), repeats, min_seconds=0.2)


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "CPU"


def calibrate(repeats=7, quick=False):
    """(profile, catalog) as dicts, measured now."""
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
        "overhead_source": "x.add_(1) on a one-element tensor: torch's per-op dispatch",
    }
    best = {name: max(g["flops_per_second"] for g in gemms if g["dtype"] == name) for name in DTYPES}
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
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    profile, catalog = calibrate(args.repeats, args.quick)
    with open(args.profile, "w") as f:
        json.dump(profile, f, indent=2)
    with open(args.catalog, "w") as f:
        json.dump(catalog, f, indent=2)
    print(f"wrote {args.profile} and {args.catalog}")


if __name__ == "__main__":
    main()

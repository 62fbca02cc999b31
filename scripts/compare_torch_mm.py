#!/usr/bin/env python3
"""Times the shapes of napkin's `bench matmul --device cuda --json` output through PyTorch on the same
GPU, with the same method (uniform [-1, 1] data, warm-up, CUDA events, L2 flushed before each call,
median of the repeats), and prints napkin / torch throughput ratios.

fp32 runs with TF32 off, tf32 with it on (torch.backends.cuda.matmul.allow_tf32), fp16/bf16 through
torch.mm, fp8-e4m3 through torch._scaled_mm with per-tensor scales of 1 and bf16 output (napkin's
cuBLASLt setup: A row-major m x k, B column-major k x n, i.e. "TN").

usage: compare_torch_mm.py [--repeats N] matmul-fp32.json [matmul-bf16.json ...]
"""
import argparse
import json
import statistics
import sys

import torch

DTYPES = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
          "fp64": torch.float64}


def make_call(m, n, k, dtype):
    dev = "cuda"
    if dtype == "fp8-e4m3":
        a = (torch.rand(m, k, device=dev) * 2 - 1).to(torch.float8_e4m3fn)
        b = (torch.rand(n, k, device=dev) * 2 - 1).to(torch.float8_e4m3fn).t()  # column-major k x n
        one = torch.tensor(1.0, device=dev)
        return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    t = DTYPES[dtype]
    torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
    a = torch.rand(m, k, device=dev, dtype=torch.float32).mul_(2).sub_(1).to(t)
    b = torch.rand(k, n, device=dev, dtype=torch.float32).mul_(2).sub_(1).to(t)
    return lambda: torch.mm(a, b)


def time_call(call, repeats, flush):
    for _ in range(3):
        call()
    torch.cuda.synchronize()
    seconds = []
    for _ in range(repeats):
        flush.zero_()  # overwrite L2, outside the timed span
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        call()
        stop.record()
        stop.synchronize()
        seconds.append(start.elapsed_time(stop) * 1e-3)
    return statistics.median(seconds)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    props = torch.cuda.get_device_properties(0)
    l2 = getattr(props, "L2_cache_size", 64 << 20)
    flush = torch.empty(max(2 * l2, 1 << 20), dtype=torch.uint8, device="cuda")
    print(f"# {props.name}, torch {torch.__version__}, CUDA {torch.version.cuda}")
    print(f"{'m':>6} {'n':>6} {'k':>6} {'dtype':>9} {'napkin TFLOP/s':>15} {'torch TFLOP/s':>14} "
          f"{'napkin/torch':>12} {'napkin mfu':>10} {'max_rel_err':>11}")
    for path in args.files:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            print(f"# {path}: {e}")
            continue
        for r in doc.get("results", []):
            m, n, k, dtype = r["m"], r["n"], r["k"], r["dtype"]
            if not r.get("ok", True) or not r.get("seconds_median"):
                print(f"{m:>6} {n:>6} {k:>6} {dtype:>9}  napkin failed: {r.get('error', '?')}")
                continue
            flops = 2.0 * m * n * k
            try:
                torch_seconds = time_call(make_call(m, n, k, dtype), args.repeats, flush)
            except Exception as e:  # noqa: BLE001 - report and go on, like napkin's sweep
                print(f"{m:>6} {n:>6} {k:>6} {dtype:>9}  torch failed: {e}")
                continue
            ours, theirs = flops / r["seconds_median"], flops / torch_seconds
            mfu = r.get("mfu")
            print(f"{m:>6} {n:>6} {k:>6} {dtype:>9} {ours / 1e12:>15.1f} {theirs / 1e12:>14.1f} "
                  f"{ours / theirs:>12.3f} {mfu if mfu is not None else float('nan'):>10.3f} "
                  f"{r.get('max_rel_error', float('nan')):>11.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

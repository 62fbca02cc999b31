#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Times the shapes of napkin's `bench matmul --device cuda --json` output through PyTorch on the same
GPU with napkin's method, and prints napkin / torch throughput ratios.

Same method as engine/benchmarks/matmul_sweep.cpp and engine/compute/cuda/cuda_matmul_problem.cpp:
- layout "TN" for every dtype: A row-major m x k, B column-major k x n (torch: a[m, k] times b[n, k].t());
- data uniform in [-1, 1], rounded to the dtype;
- warm-up: back-to-back GEMMs for at least 0.2 s before the process's first case (the SM clock ramps up
  from idle), then per case single calls until two consecutive ones agree within 5 % (at most 20);
- timing: CUDA events around each single call, L2 flushed (zeroing twice its size) before each, outside
  the span; a sample is the mean of napkin's `calls_per_sample` such calls; the statistic is the median
  of `--repeats` samples;
- fp32 with TF32 off and tf32 with it on (torch.backends.cuda.matmul.fp32_precision "ieee"/"tf32" where
  torch has it, else allow_tf32); fp16/bf16 through torch.mm; fp8-e4m3 through torch._scaled_mm with
  per-tensor scales of 1 and bf16 output.
What still differs: for fp8 napkin times up to 8 cuBLASLt heuristics and keeps the fastest; _scaled_mm
runs cuBLASLt's first heuristic. torch.mm picks its own cuBLAS(Lt) algorithm for the other dtypes.
Before and after each dtype it records the SM clock, its maximum, power draw and throttle reasons
(nvidia-smi), and the torch and CUDA versions.

usage: compare_torch_mm.py [--repeats N] [--device cuda|cpu] [--json-out FILE] matmul-fp32.json [...]
--device cpu (the CI dry run of scripts/gpu-bench.sh): the same steps on the CPU with a steady clock and no
L2 flush, to check the script end to end; its figures are not a GPU comparison.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

import torch

DTYPES = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
          "fp64": torch.float64}
SMI_FIELDS = "clocks.sm,clocks.max.sm,power.draw,clocks_throttle_reasons.active"
FP8_NOTE = ("fp8: napkin times up to 8 cuBLASLt heuristics and keeps the fastest; torch._scaled_mm runs the "
            "first heuristic only")


def set_tf32(on):
    matmul = torch.backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):  # torch >= 2.9: allow_tf32 is deprecated
        matmul.fp32_precision = "tf32" if on else "ieee"
        return "torch.backends.cuda.matmul.fp32_precision"
    matmul.allow_tf32 = on
    return "torch.backends.cuda.matmul.allow_tf32"


def smi():
    """One nvidia-smi reading of the SM clock, its max, power and throttle reasons, or why there is none."""
    for fields in (SMI_FIELDS, SMI_FIELDS.replace("clocks_throttle_reasons", "clocks_event_reasons")):
        try:
            done = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                                  capture_output=True, text=True, timeout=10, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            return f"nvidia-smi: {e}"
        if done.returncode == 0:
            return f"{fields}: {done.stdout.strip()}"
    return f"nvidia-smi failed: {done.stdout.strip() or done.stderr.strip()}"


def uniform(rows, cols, dtype, device):
    return torch.rand(rows, cols, device=device, dtype=torch.float32).mul_(2).sub_(1).to(dtype)


def make_call(m, n, k, dtype, device):
    if dtype == "fp8-e4m3":
        if not hasattr(torch, "float8_e4m3fn") or not hasattr(torch, "_scaled_mm"):
            raise RuntimeError(f"torch {torch.__version__} has no float8_e4m3fn / _scaled_mm")
        a = uniform(m, k, torch.float32, device).to(torch.float8_e4m3fn)
        b = uniform(n, k, torch.float32, device).to(torch.float8_e4m3fn).t()  # column-major k x n
        one = torch.tensor(1.0, device=device)
        return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    if dtype not in DTYPES:
        raise RuntimeError(f"no torch dtype for {dtype}")
    if device == "cuda":
        set_tf32(dtype == "tf32")
    elif dtype == "tf32":
        raise RuntimeError("tf32 needs a GPU")
    t = DTYPES[dtype]
    a = uniform(m, k, t, device)
    b = uniform(n, k, t, device).t()  # TN, as napkin: B column-major k x n
    return lambda: torch.mm(a, b)


class Timer:
    """Seconds of one call: CUDA events with L2 flushed before (cuda), or a steady clock (cpu)."""

    def __init__(self, device):
        self.device = device
        if device == "cuda":
            props = torch.cuda.get_device_properties(0)
            l2 = getattr(props, "L2_cache_size", 64 << 20)
            self.flush = torch.empty(max(2 * l2, 1 << 20), dtype=torch.uint8, device="cuda")

    def once(self, call):
        if self.device != "cuda":
            start = time.perf_counter()
            call()
            return time.perf_counter() - start
        self.flush.zero_()  # overwrite L2, outside the timed span
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        call()
        stop.record()
        stop.synchronize()
        return start.elapsed_time(stop) * 1e-3


def spin_up(timer, call, seconds=0.2):
    """Back-to-back calls for at least `seconds` of their own time: the clock leaves its idle state."""
    spent, calls = 0.0, 0
    while spent < seconds and calls < 100000:
        spent += timer.once(call)
        calls += 1
    return calls


def warm_up(timer, call, tolerance=0.05, cap=20):
    previous, runs = timer.once(call), 1
    while runs < cap:
        now = timer.once(call)
        runs += 1
        stable = abs(now - previous) <= tolerance * max(now, previous)
        previous = now
        if stable:
            break
    return runs


def measure(timer, call, repeats, calls_per_sample):
    samples = []
    for _ in range(repeats):
        samples.append(sum(timer.once(call) for _ in range(calls_per_sample)) / calls_per_sample)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--json-out", help="also write the comparison as JSON (gpu_bench_summary.py reads it)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    device = args.device
    name = torch.cuda.get_device_properties(0).name if device == "cuda" else "cpu"
    doc = {"device": name, "torch": torch.__version__, "cuda": torch.version.cuda, "method": __doc__.split(
        "usage:")[0].strip(), "note": FP8_NOTE, "tf32_switch": set_tf32(False) if device == "cuda" else None,
        "clocks": [], "results": []}
    print(f"# {name}, torch {torch.__version__}, CUDA {torch.version.cuda}, device {device}")
    print(f"# {FP8_NOTE}")
    print(f"{'m':>6} {'n':>6} {'k':>6} {'dtype':>9} {'napkin TFLOP/s':>15} {'torch TFLOP/s':>14} "
          f"{'napkin/torch':>12} {'napkin mfu':>10} {'max_rel_err':>11}")
    timer = Timer(device)
    spun = False
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                sweep = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            print(f"# {path}: {e}")
            continue
        results = sweep.get("results", [])
        if not results:
            continue
        dtype = results[0]["dtype"]
        if device == "cuda":
            doc["clocks"].append({"dtype": dtype, "when": "before", "nvidia_smi": smi()})
            print(f"# {dtype} before: {doc['clocks'][-1]['nvidia_smi']}")
        for r in results:
            m, n, k = r["m"], r["n"], r["k"]
            row = {"dtype": dtype, "m": m, "n": n, "k": k, "napkin_flops_per_second": r.get("flops_per_second")}
            doc["results"].append(row)
            if not r.get("ok") or not r.get("seconds_median"):
                row["error"] = f"napkin failed: {r.get('error', '?')}"
                print(f"{m:>6} {n:>6} {k:>6} {dtype:>9}  {row['error']}")
                continue
            flops = 2.0 * m * n * k
            try:
                call = make_call(m, n, k, dtype, device)
                if not spun:
                    row["spin_up_calls"] = spin_up(timer, call)
                    spun = True
                row["warmup_runs"] = warm_up(timer, call)
                row["calls_per_sample"] = int(r.get("calls_per_sample") or 1)
                seconds = measure(timer, call, args.repeats, row["calls_per_sample"])
            except Exception as e:  # noqa: BLE001 - report and go on, like napkin's sweep
                row["error"] = f"torch failed: {e}"
                print(f"{m:>6} {n:>6} {k:>6} {dtype:>9}  {row['error']}")
                continue
            ours, theirs = flops / r["seconds_median"], flops / seconds
            row.update({"torch_seconds_median": seconds, "torch_flops_per_second": theirs, "ratio": ours / theirs})
            mfu = r.get("mfu")
            print(f"{m:>6} {n:>6} {k:>6} {dtype:>9} {ours / 1e12:>15.3f} {theirs / 1e12:>14.3f} "
                  f"{ours / theirs:>12.3f} {mfu if mfu is not None else float('nan'):>10.3f} "
                  f"{r.get('max_rel_error', float('nan')):>11.2e}")
        if device == "cuda":
            doc["clocks"].append({"dtype": dtype, "when": "after", "nvidia_smi": smi()})
            print(f"# {dtype} after: {doc['clocks'][-1]['nvidia_smi']}")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

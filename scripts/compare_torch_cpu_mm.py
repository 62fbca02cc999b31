#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Napkin's CPU GEMM against torch.mm on the same machine, in the same minute.

Alternates `napkin-cli bench matmul --json` and torch.mm (Debian's python3-torch) case by case, fp32 and
bf16, n = 1024 and 2048, for a few rounds, on the same number of threads, and prints each side's median
over the rounds and their ratio. Each side's figure per round is the median of 11 timed GEMMs after a
warm-up, 2·n³ FLOPs each. A benchmark, not a test: run it when the machine is otherwise idle (the load
average is printed next to every figure).

    python3 scripts/compare_torch_cpu_mm.py [--napkin-cli build/cli/napkin-cli] [--threads 2]
        [--sizes 1024,2048] [--dtypes fp32,bf16] [--rounds 3] [--backends onednn,eigen]
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time


def load_average():
    return os.getloadavg()[0]


def cpu_flags():
    """The model name and the vector extensions that matter for GEMMs, from /proc/cpuinfo."""
    model, flags = "unknown", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and model == "unknown":
                    model = line.split(":", 1)[1].strip()
                if line.startswith("flags"):
                    flags.update(line.split(":", 1)[1].split())
    except OSError:
        pass
    wanted = sorted(f for f in flags if re.match(r"(avx512|amx|avx2$|fma$|avx_vnni)", f))
    return model, wanted


def napkin_gflops(cli, backend, dtype, n, threads, repeats):
    args = [cli, "bench", "matmul", "--backend", backend, "--dtype", dtype, "--sizes", str(n),
            "--threads", str(threads), "--repeats", str(repeats), "--json"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    doc = json.loads(out)
    result = doc["results"][0]
    if not result["ok"]:
        raise RuntimeError(f"napkin-cli {backend} {dtype} n={n}: {result['error']}")
    return result["flops_per_second"] / 1e9, result, doc["device"]


def torch_gflops(torch, dtype, n, repeats):
    torch_dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[dtype]
    gen = torch.Generator().manual_seed(n)
    a = (torch.rand(n, n, generator=gen) * 2 - 1).to(torch_dtype)
    b = (torch.rand(n, n, generator=gen) * 2 - 1).to(torch_dtype)
    c = torch.empty(n, n, dtype=torch_dtype)
    # Warm-up as napkin's: until two consecutive calls agree within 5% (at most 20).
    previous = None
    for _ in range(20):
        start = time.perf_counter()
        torch.mm(a, b, out=c)
        now = time.perf_counter() - start
        if previous is not None and abs(now - previous) <= 0.05 * max(now, previous):
            break
        previous = now
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        torch.mm(a, b, out=c)
        samples.append(time.perf_counter() - start)
    return 2.0 * n ** 3 / statistics.median(samples) / 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--napkin-cli", default="build/cli/napkin-cli")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sizes", default="1024,2048")
    parser.add_argument("--dtypes", default="fp32,bf16")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--backends", default="onednn,eigen",
                        help="napkin CPU backends to run; the first is the one compared with torch.mm")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        sys.exit("compare_torch_cpu_mm.py: needs PyTorch (Debian: apt install python3-torch; run /usr/bin/python3)")
    torch.set_num_threads(args.threads)  # torch.get_num_threads() may say 1 by default: set it, as --threads
    sizes = [int(s) for s in args.sizes.split(",")]
    dtypes = args.dtypes.split(",")
    backends = args.backends.split(",")

    model, flags = cpu_flags()
    print(f"date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}")
    print(f"cpu: {model}, {os.cpu_count()} logical CPUs; flags: {' '.join(flags)}")
    print(f"torch {torch.__version__} ({platform.python_implementation()} {platform.python_version()}), "
          f"threads {torch.get_num_threads()}, mkldnn {torch.backends.mkldnn.is_available()}")
    # torch's fp32 mm goes to the BLAS it was built with; Debian's says BLAS_INFO=generic, i.e. whatever
    # libblas.so.3 points to: netlib's reference loops (a few GFLOP/s) unless OpenBLAS/BLIS is installed.
    blas = re.search(r"BLAS_INFO=([^,\s]+)", torch.__config__.show())
    libblas = os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")
    print(f"torch BLAS_INFO={blas.group(1) if blas else 'unknown'}, libblas.so.3 -> {libblas}"
          + ("  (netlib reference BLAS: torch's fp32 figures are not a fair target)" if "/blas/" in libblas else ""))
    print(f"napkin-cli: {args.napkin_cli} --threads {args.threads}; rounds {args.rounds}, "
          f"{args.repeats} timed GEMMs per figure")
    print(f"load average at start: {load_average():.2f}")
    sys.stdout.flush()

    figures = {}  # (side, dtype, n) -> [GFLOP/s per round]
    loads = {}    # (dtype, n) -> [load average per round]
    device = None
    for r in range(args.rounds):
        for dtype in dtypes:
            for n in sizes:
                # Alternate which side goes first, so neither always runs on a warmer (or hotter) machine.
                sides = backends + ["torch"]
                if r % 2 == 1:
                    sides = ["torch"] + backends
                for side in sides:
                    if side == "torch":
                        g = torch_gflops(torch, dtype, n, args.repeats)
                    else:
                        g, _, dev = napkin_gflops(args.napkin_cli, side, dtype, n, args.threads, args.repeats)
                        if side == backends[0]:
                            device = dev  # the compared backend's, not whichever ran last
                    figures.setdefault((side, dtype, n), []).append(g)
                loads.setdefault((dtype, n), []).append(load_average())
                line = ", ".join(f"{s} {figures[(s, dtype, n)][-1]:.1f}" for s in sides)
                print(f"round {r + 1} {dtype} n={n}: {line} GFLOP/s (load {loads[(dtype, n)][-1]:.2f})")
                sys.stdout.flush()

    if device:
        print(f"napkin device: {device.get('cpu_backend')} {device.get('cpu_backend_version')}, "
              f"isa {device.get('isa')}, threads {device.get('threads')}")
    head = backends[0]
    print()
    print(f"| dtype | n | {' | '.join(f'napkin {b} GFLOP/s' for b in backends)} | torch.mm GFLOP/s "
          f"| {head} ÷ torch | load avg (1 min) |")
    print("|" + " --- |" * (len(backends) + 5))
    for dtype in dtypes:
        for n in sizes:
            med = {s: statistics.median(figures[(s, dtype, n)]) for s in backends + ["torch"]}
            ratio = med[head] / med["torch"]
            load = ", ".join(f"{x:.2f}" for x in loads[(dtype, n)])
            cells = " | ".join(f"{med[b]:.1f}" for b in backends)
            print(f"| {dtype} | {n} | {cells} | {med['torch']:.1f} | {ratio:.2f}× | {load} |")
    print(f"\nload average at end: {load_average():.2f}")


if __name__ == "__main__":
    main()

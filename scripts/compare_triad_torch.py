#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent check of `napkin-cli bench memory --device cpu`: PyTorch's own triad on the same CPU,
alternating with napkin's in the same minutes, with the same method, and the napkin / torch ratio.

torch's triad is torch.add(b, c, alpha=s, out=a) = b + s*c over fp64 tensors of the same size as
napkin's arrays, with torch.set_num_threads(the same threads); 2 untimed runs, then the median of
--repeats runs timed with time.perf_counter; bytes counted as STREAM (and napkin) count them: 3 arrays x
8 bytes per element per run (2 reads + 1 write, the write-allocate read not counted). The tensors are
filled by torch's own threads before timing (first touch) and checked afterwards (a == 3.5 exactly).

usage: compare_triad_torch.py [--cli build/cli/napkin-cli] [--bytes 1G] [--threads T] [--repeats 11]
                              [--rounds 2]
Without --bytes and --threads it uses napkin's defaults (the size rule and one thread per physical
core) and gives torch the same ones, read from napkin's first JSON document.
"""
import argparse
import json
import statistics
import subprocess
import time

import torch

B, C, S = 2.0, 0.5, 3.0  # exact in binary: b + s*c == 3.5 with or without a fused multiply-add


def napkin_triad(cli, bytes_arg, threads, repeats, warmup):
    cmd = [cli, "bench", "memory", "--device", "cpu", "--repeats", str(repeats), "--warmup", str(warmup),
           "--json"]
    if bytes_arg:
        cmd += ["--bytes", str(bytes_arg)]
    if threads:
        cmd += ["--threads", str(threads)]
    doc = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    if not doc["verified"]:
        raise SystemExit("napkin's triad result was not verified")
    return doc


def torch_triad(bytes_per_array, threads, repeats, warmup):
    torch.set_num_threads(threads)
    n = bytes_per_array // 8
    a = torch.empty(n, dtype=torch.float64)
    b = torch.empty(n, dtype=torch.float64)
    c = torch.empty(n, dtype=torch.float64)
    a.fill_(0.0)  # first touch by torch's own threads, before any timing
    b.fill_(B)
    c.fill_(C)
    for _ in range(warmup):
        torch.add(b, c, alpha=S, out=a)
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        torch.add(b, c, alpha=S, out=a)
        seconds.append(time.perf_counter() - start)
    if not bool((a == B + S * C).all()):
        raise SystemExit("torch's triad gave a wrong result")
    median = statistics.median(seconds)
    return {"bytes_per_array": 8 * n, "bytes_moved_per_run": 3 * 8 * n, "seconds_median": median,
            "bytes_per_second": 3 * 8 * n / median}


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cli", default="build/cli/napkin-cli")
    p.add_argument("--bytes", default="", help="bytes per array (K/M/G); default napkin's size rule")
    p.add_argument("--threads", type=int, default=0, help="default napkin's (one per physical core)")
    p.add_argument("--repeats", type=int, default=11)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--rounds", type=int, default=2, help="napkin, torch, napkin, torch, ... (default 2)")
    args = p.parse_args()

    print(f"torch {torch.__version__}, {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, "
          f"load average {load_average():.2f}")
    bytes_arg, threads = args.bytes, args.threads
    ratios = []
    for r in range(args.rounds):
        nap = napkin_triad(args.cli, bytes_arg, threads, args.repeats, args.warmup)
        # torch gets exactly napkin's size and threads (napkin rounds --bytes down to whole elements).
        bytes_arg, threads = nap["bytes_per_array"], nap["threads"]
        tor = torch_triad(nap["bytes_per_array"], nap["threads"], args.repeats, args.warmup)
        ratio = nap["bytes_per_second"] / tor["bytes_per_second"]
        ratios.append(ratio)
        print(f"round {r + 1}: {nap['threads']} threads, {nap['bytes_per_array'] / 2**20:.0f} MiB per array "
              f"({nap['size_rule']}), load {load_average():.2f}")
        print(f"  napkin-cli bench memory: {nap['bytes_per_second'] / 1e9:8.2f} GB/s "
              f"(median {nap['seconds_median'] * 1e3:.1f} ms of {nap['samples']})")
        print(f"  torch.add(b, c, alpha=s, out=a): {tor['bytes_per_second'] / 1e9:8.2f} GB/s "
              f"(median {tor['seconds_median'] * 1e3:.1f} ms of {args.repeats})")
        print(f"  napkin / torch: {ratio:.3f}")
    print(f"median ratio napkin / torch over {len(ratios)} rounds: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()

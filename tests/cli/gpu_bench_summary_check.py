#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/gpu_bench_summary.py on made-up stage folders: a matmul case that verification refused, a
failed tst_cuda_gpu and a missing step must read FAIL / not measured, a GPU run that found no GPU FAIL,
and a clean stage PASS.
usage: gpu_bench_summary_check.py REPO_ROOT"""
import json
import os
import subprocess
import sys
import tempfile


def stage(folder, matmul_ok, suite_exit):
    with open(os.path.join(folder, "steps.tsv"), "w", encoding="utf-8") as f:
        f.write("step\texit\tseconds\tnote\n")
        f.write(f"tst_cuda_gpu\t{suite_exit}\t3\t\n")
        f.write("matmul-bf16\t0\t5\t\n")
        f.write("matmul-fp8-e4m3\t2\t0\t\n")
    with open(os.path.join(folder, "matmul-fp8-e4m3.err"), "w", encoding="utf-8") as f:
        f.write("--dtype fp8-e4m3: needs compute capability 8.9\n")
    with open(os.path.join(folder, "tst_cuda_gpu.txt"), "w", encoding="utf-8") as f:
        f.write("PASS a\n" + ("FAIL gemmMatchesReference(bf16): worst 0.5\n" if suite_exit else "")
                + f"2 cases: {2 - (1 if suite_exit else 0)} passed, {1 if suite_exit else 0} failed, 0 skipped\n")
    result = {"m": 4096, "n": 4096, "k": 4096, "dtype": "bf16", "ok": matmul_ok,
              "error": None if matmul_ok else "verification failed: max_rel_error 0.3 exceeds the bound 0.0044",
              "flops_per_second": 7.0e14, "mfu": 0.7, "max_rel_error": 0.001 if matmul_ok else 0.3,
              "seconds_median": 2e-4}
    with open(os.path.join(folder, "matmul-bf16.json"), "w", encoding="utf-8") as f:
        json.dump({"results": [result]}, f)


def summary(root, folder):
    return subprocess.run([sys.executable, os.path.join(root, "scripts", "gpu_bench_summary.py"), folder],
                          capture_output=True, text=True, check=True).stdout


def main():
    root = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory() as bad, tempfile.TemporaryDirectory() as good:
        stage(bad, matmul_ok=False, suite_exit=1)
        text = summary(root, bad)
        for needle in ("bf16      FAIL 4096x4096x4096: verification failed", "tst_cuda_gpu: FAIL",
                       "FAIL gemmMatchesReference(bf16)", "RESULT: FAIL (tst_cuda_gpu, matmul bf16)",
                       "fp8-e4m3  not measured (exit 2: --dtype fp8-e4m3: needs compute capability 8.9)",
                       "trainer fp32: not measured (not run)"):
            if needle not in text:
                problems.append(f"refused stage: '{needle}' missing")
        stage(good, matmul_ok=True, suite_exit=0)
        text2 = summary(root, good)
        for needle in ("tst_cuda_gpu: PASS", "bf16        700.0 TFLOP/s at 4096x4096x4096 (MFU 0.700)",
                       "RESULT: PASS"):
            if needle not in text2:
                problems.append(f"clean stage: '{needle}' missing")
    with tempfile.TemporaryDirectory() as nogpu:
        with open(os.path.join(nogpu, "meta.txt"), "w", encoding="utf-8") as f:
            f.write("mode: gpu\n")
        with open(os.path.join(nogpu, "steps.tsv"), "w", encoding="utf-8") as f:
            f.write("step\texit\tseconds\tnote\ntst_cuda_gpu\t77\t1\t\nmatmul-bf16\t2\t0\t\n")
        text3 = summary(root, nogpu)
        if "RESULT: FAIL (no CUDA device, no matmul measured)" not in text3:
            problems.append("GPU mode without a GPU did not FAIL:\n" + text3)
    for p in problems:
        print(p)
    if problems:
        print(text)
        print(text2)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

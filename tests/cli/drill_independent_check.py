#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""napkin-cli drill's answers, recomputed here from each question's parameters with formulas written out
in Python and with PyTorch itself, never by calling the engine function that produced them.

  tensor-bytes         torch's element_size() × Π shape
  dtype                torch.finfo (fp32, fp16, bf16); the formats' bit layouts for fp8 (OCP FP8 spec);
                       rounding done exactly here with fractions, ties to even
  strides              torch.arange(...).as_strided(shape, stride, offset)[index]
  views                the expression run in PyTorch: a view shares x's storage, a copy does not
  matmul-flops         2·m·n·k
  linear-stack-flops   the stack built of torch.nn.Linear on the meta device, its forward and backward
                       matmuls counted by a TorchDispatchMode (tests/validation/torch_harness.py)
  training-time        6·N·T / (GPUs · peak · MFU) / 86400, the peak checked against gpu_catalog.json
  bytes-per-parameter  a table of the recipes' dtypes: weights + gradients + master + state tensors
  largest-model        ⌊capacity / bytes per parameter⌋, the capacity checked against gpu_catalog.json
  activations          s·b·h·(34 + 5·a·s/h) (Korthikanti et al. 2022, eq. 1)
  kv-cache             2 · L · g · (d/a) · bytes

usage: drill_independent_check.py --cli PATH --catalog gpu_catalog.json [--seed 1] [--count 50]
Exit status: 0 every answer agrees and every topic appeared, 1 otherwise, 77 torch is not installed.
"""
import argparse
import json
import math
import os
import subprocess
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "validation"))
from torch_harness import MatmulFlops, torch  # noqa: E402  (exits 77 without torch)

TOPICS = ["tensor-bytes", "dtype", "strides", "views", "matmul-flops", "linear-stack-flops", "training-time",
          "bytes-per-parameter", "largest-model", "activations", "kv-cache"]
TORCH_DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "fp64": torch.float64,
                "int8": torch.int8, "int64": torch.int64}
# (exponent bits, mantissa bits, bias, has infinity): IEEE 754 binary32/binary16, bfloat16, OCP FP8 E4M3/E5M2.
LAYOUTS = {"fp32": (8, 23, 127, True), "fp16": (5, 10, 15, True), "bf16": (8, 7, 127, True),
           "fp8-e4m3": (4, 3, 7, False), "fp8-e5m2": (5, 2, 15, True)}
STORAGE_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1}
# Per parameter: (weights, gradients, master copy, each optimizer state tensor) in bytes.
RECIPES = {"fp32": (4, 4, 0, 4), "fp16": (2, 2, 0, 2), "bf16": (2, 2, 0, 2), "mixed-fp16": (2, 2, 4, 4),
           "mixed-bf16": (2, 2, 4, 4), "fp8-mixed": (2, 2, 4, 4)}
STATE_TENSORS = {"sgd": 0, "momentum": 1, "adagrad": 1, "rmsprop": 1, "adam": 2, "adamw": 2}


def format_max(e, m, bias, has_inf):
    if has_inf:  # the all-ones exponent is inf/NaN
        return (2 - 2.0 ** -m) * 2.0 ** ((1 << e) - 2 - bias)
    return (2 - 2.0 ** -(m - 1)) * 2.0 ** ((1 << e) - 1 - bias)  # only all-ones exponent and mantissa is NaN


def round_to_format(value, e, m, bias):
    """The nearest value with m mantissa bits, ties to even, subnormals below 2^(1 − bias): exact."""
    v = Fraction(value)
    if v == 0:
        return 0.0
    a = abs(v)
    exponent = math.floor(math.log2(a))
    while Fraction(2) ** exponent > a:
        exponent -= 1
    while Fraction(2) ** (exponent + 1) <= a:
        exponent += 1
    exponent = max(exponent, 1 - bias)
    quantum = Fraction(2) ** (exponent - m)
    result = round(a / quantum) * quantum  # Python rounds a Fraction half to even
    return float(result if v > 0 else -result)


def expected(q, catalog):
    t, k, p = q["topic"], q["kind"], q["parameters"]
    if t == "tensor-bytes":
        return math.prod(p["shape"]) * torch.empty(0, dtype=TORCH_DTYPES[p["dtype"]]).element_size()
    if t == "dtype":
        e, m, bias, has_inf = LAYOUTS[p["format"]]
        finfo = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}.get(p["format"])
        if k == "max":
            value = format_max(e, m, bias, has_inf)
            if finfo is not None:
                assert value == torch.finfo(finfo).max, (value, torch.finfo(finfo).max)
            return value
        if k == "eps":
            value = 2.0 ** -m
            if finfo is not None:
                assert value == torch.finfo(finfo).eps
            return value
        if k == "smallest-subnormal":
            value = 2.0 ** (1 - bias - m)
            if finfo is not None:  # finfo.tiny is the smallest normal; one eps of it is the smallest subnormal
                assert value == torch.finfo(finfo).tiny * torch.finfo(finfo).eps
            return value
        return round_to_format(p["value"], e, m, bias)
    if t == "strides":
        shape, stride, offset = p["shape"], p["stride"], p["storage_offset"]
        size = offset + sum((n - 1) * s for n, s in zip(shape, stride)) + 1
        x = torch.arange(size).as_strided(shape, stride, offset)
        return x[tuple(p["index"])].item()
    if t == "views":
        x = torch.empty(*p["shape"])
        y = eval(p["expression"], {"__builtins__": {}}, {"x": x})  # the drill's own expression, e.g. x.t()
        shares = y.storage().data_ptr() == x.storage().data_ptr()
        return q["choices"].index("view" if shares else "copy")
    if t == "matmul-flops":
        return 2 * p["m"] * p["n"] * p["k"]
    if t == "linear-stack-flops":
        width, batch = p["width"], p["batch"]
        layers = [torch.nn.Linear(width, width, bias=False, device="meta") for _ in range(p["layers"])]
        layers.append(torch.nn.Linear(width, 1, bias=False, device="meta"))
        x = torch.empty(batch, width, device="meta", requires_grad=True)
        counter = MatmulFlops()
        with counter:
            y = x
            for layer in layers:
                y = layer(y)
            loss = y.sum()
            counter.phase = "backward"
            loss.backward()
        f = counter.flops
        return {"forward": f["forward"], "backward": f["backward"],
                "forward+backward": f["forward"] + f["backward"]}[k]
    if t == "training-time":
        assert p["peak_flops_per_second"] == catalog[p["gpu"]]["dense_peak_flops_per_second"]["bf16"]
        seconds = 6 * p["parameters"] * p["tokens"] / (p["gpus"] * p["peak_flops_per_second"] * p["mfu"])
        return seconds / 86400
    if t == "bytes-per-parameter":
        w, g, master, state = RECIPES[p["precision"]]
        return w + g + master + STATE_TENSORS[p["optimizer"]] * state
    if t == "largest-model":
        assert p["capacity_bytes"] == catalog[p["gpu"]]["memory_bytes"]
        w, g, master, state = RECIPES[p["precision"]]
        return math.floor(p["capacity_bytes"] / (w + g + master + STATE_TENSORS[p["optimizer"]] * state))
    if t == "activations":
        s, b, h, a = p["seq"], p["batch"], p["hidden"], p["heads"]
        return s * b * h * (34 + 5 * a * s / h)
    if t == "kv-cache":
        return 2 * p["layers"] * p["kv_heads"] * (p["d_model"] // p["heads"]) * STORAGE_BYTES[p["dtype"]]
    raise AssertionError("unknown topic " + t)


def agrees(got, want, topic):
    if topic in ("training-time", "activations"):  # divisions: the last bits may differ
        return math.isclose(got, want, rel_tol=1e-12)
    return got == want


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--count", default="50")
    args = parser.parse_args()
    catalog = {g["id"]: g for g in json.load(open(args.catalog))["gpus"]}
    run = subprocess.run([args.cli, "drill", "--seed", args.seed, "--count", args.count, "--json"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print("napkin-cli drill failed:", run.stderr)
        return 1
    doc = json.loads(run.stdout)
    failures = 0
    seen = {}
    for i, q in enumerate(doc["questions"]):
        seen[q["topic"]] = seen.get(q["topic"], 0) + 1
        try:
            want = expected(q, catalog)
        except AssertionError as e:
            print(f"question {i + 1} ({q['topic']}): {e}")
            failures += 1
            continue
        if not agrees(q["answer"], want, q["topic"]):
            print(f"question {i + 1} ({q['topic']}, {q['kind']}): napkin says {q['answer']!r}, "
                  f"recomputed {want!r}\n  {q['text']}")
            failures += 1
    missing = [t for t in TOPICS if t not in seen]
    if missing:
        print("topics that never appeared:", ", ".join(missing))
        failures += 1
    print(f"{len(doc['questions'])} questions, {len(seen)} topics "
          f"({', '.join(f'{t} {n}' for t, n in seen.items())}): {failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

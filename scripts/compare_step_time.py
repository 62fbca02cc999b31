#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Napkin's predicted step time against torch eager training steps on this CPU, in the same run.

First calibrates (scripts/calibrate_torch.py: torch.mm at a few shapes per dtype in three orientations,
elementwise bandwidth, per-op dispatch) into a hardware profile; then, for GPT-2-style (nanoGPT) and Llama-style (Hugging Face
eager) models from tests/validation/reference_models.py, times torch training steps (zero_grad, forward,
cross-entropy, backward, AdamW single-tensor step; median of the timed steps after a warm-up; denormals
flushed) and asks
`napkin-cli account --hardware-profile` for the same setup's step time, twice: 'before' from the generic
shapes alone, their three orientations averaged (the shape-blind lookup), 'after' with the step's own GEMM
shapes in each orientation and its optimizer update timed whole in the minute before its steps
(calibrate_torch.py --step). Prints predicted / measured per phase (forward, backward, optimizer) and
per step for both, and the median and worst |predicted/measured − 1|. A benchmark, not a test: figures go to
docs/benchmarks.md with the command. With --max-ratio R it exits 1 when a prediction is off by more than
R× either way (the test suite's loose bound), and prints the work counts it checked.

    /usr/bin/python3 scripts/compare_step_time.py --napkin-cli build-test/cli/napkin-cli [--quick]
        [--threads 1] [--steps 3] [--max-ratio 2]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "validation"))

try:
    import torch  # noqa: E402
except ImportError:  # skipped (77) under ctest, unless NAPKIN_REQUIRE_TORCH=1 makes it a failure
    print("torch not installed" + (": required" if os.environ.get("NAPKIN_REQUIRE_TORCH") == "1" else ": skipped"))
    sys.exit(1 if os.environ.get("NAPKIN_REQUIRE_TORCH") == "1" else 77)

import calibrate_torch  # noqa: E402
import reference_models  # noqa: E402

# (style, shape) from tiny to ~100M parameters; `dtypes` says which precisions each runs in (fp32 runs on
# Debian torch's generic BLAS, about 2 GFLOP/s a thread, so the largest shapes run in bf16 alone).
SHAPES = [
    ("gpt2", dict(d=64, heads=4, layers=2, vocab=512, seq=64, ffn=256, batch=2), ("fp32", "bf16")),
    ("gpt2", dict(d=128, heads=4, layers=4, vocab=2048, seq=128, ffn=512, batch=2), ("fp32", "bf16")),
    ("gpt2", dict(d=256, heads=8, layers=4, vocab=8192, seq=128, ffn=1024, batch=2), ("fp32", "bf16")),
    ("gpt2", dict(d=512, heads=8, layers=8, vocab=16384, seq=128, ffn=2048, batch=1), ("bf16",)),
    ("llama", dict(d=64, heads=4, kv_heads=2, layers=2, vocab=512, seq=64, ffn=172, batch=2), ("fp32", "bf16")),
    ("llama", dict(d=128, heads=4, kv_heads=2, layers=4, vocab=2048, seq=128, ffn=344, batch=2), ("fp32", "bf16")),
    ("llama", dict(d=256, heads=8, kv_heads=4, layers=4, vocab=8192, seq=128, ffn=688, batch=2), ("fp32", "bf16")),
    ("llama", dict(d=768, heads=12, kv_heads=4, layers=12, vocab=32000, seq=128, ffn=2048, batch=1), ("bf16",)),
]
QUICK = [SHAPES[0], SHAPES[4]]
TORCH_DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


def model_and_args(style, s, dtype):
    """The torch module and napkin-cli's model options for one shape."""
    if style == "gpt2":
        spec = dict(d=s["d"], heads=s["heads"], layers=s["layers"], vocab=s["vocab"], seq=s["seq"],
                    ffn=s["ffn"], bias=True, tied=True, dropout=0.0, checkpoint=False)
        model = reference_models.Gpt2(spec)
        args = ["--model", "transformer", "--d-model", s["d"], "--heads", s["heads"], "--layers", s["layers"],
                "--vocab", s["vocab"], "--seq", s["seq"], "--ffn-dim", s["ffn"], "--bias", "on",
                "--embeddings", "tied", "--dropout", "off"]
    else:
        dh = s["d"] // s["heads"]
        spec = dict(d=s["d"], heads=s["heads"], kv_heads=s["kv_heads"], head_dim=dh, layers=s["layers"],
                    vocab=s["vocab"], seq=s["seq"], ffn=s["ffn"], bias=False, qkv_bias=False, experts=1, tied=False, norm="rmsnorm",
                    norm_bias=False, mlp="swiglu", position="rope", dropout=0.0, checkpoint=False)
        model = reference_models.Decoder(spec)
        args = ["--model", "transformer", "--d-model", s["d"], "--heads", s["heads"], "--kv-heads", s["kv_heads"],
                "--head-dim", dh, "--layers", s["layers"], "--vocab", s["vocab"], "--seq", s["seq"],
                "--ffn-dim", s["ffn"], "--mlp", "swiglu", "--norm", "rmsnorm", "--position", "rope",
                "--bias", "off", "--embeddings", "untied", "--dropout", "off"]
    precision = "fp32" if dtype == "fp32" else "bf16"
    args += ["--batch", s["batch"], "--precision", precision, "--optimizer", "adamw",
             "--optimizer-implementation", "single-tensor"]
    return model.to(TORCH_DTYPES[dtype]), [str(a) for a in args]


PHASES = ("forward", "backward", "optimizer")


def measure_step(model, s, steps):
    """Median seconds of one training step (AdamW single-tensor, as torch 1.13 runs it on the CPU), and of
    its phases: forward (the model and its loss), backward, optimizer (optimizer.step()); each phase's
    median over the timed steps, timed by a steady clock between the calls (no profiler inside)."""
    gen = torch.Generator().manual_seed(0)
    idx = torch.randint(0, s["vocab"], (s["batch"], s["seq"]), generator=gen)
    targets = torch.randint(0, s["vocab"], (s["batch"], s["seq"]), generator=gen)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=False)
    model.train()

    def step():
        t0 = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        t1 = time.perf_counter()
        loss = model(idx, targets)
        t2 = time.perf_counter()
        loss.backward()
        t3 = time.perf_counter()
        optimizer.step()
        t4 = time.perf_counter()
        return {"step": t4 - t0, "forward": t2 - t1, "backward": t3 - t2, "optimizer": t4 - t3}

    step()  # warm-up: allocations, oneDNN primitives, optimizer state
    times = [step() for _ in range(steps)]
    return {key: statistics.median(t[key] for t in times) for key in times[0]}


def predicted_phases(step_time):
    """Seconds per phase of the ledger (op rows and the phase's overhead row), and the step's."""
    seconds = {phase: 0.0 for phase in PHASES}
    for row in step_time["ledger"]:
        if row["phase"] in seconds:
            seconds[row["phase"]] += row["seconds"]
    seconds["step"] = step_time["seconds"]
    return seconds


def shape_blind(profile):
    """The profile as calibrate_torch.py wrote it before orientations were recorded: each generic shape's
    three GEMMs timed together as one `any` rate, 3·2·m·n·k / (t_forward + t_input + t_weight), no exact
    shapes, no update timed whole, and the per-op overhead of an in-place x.add_(1) (re-measured now). From
    the same GEMM measurements, so the before/after difference is the lookup's and the overhead's."""
    x = torch.zeros(1)
    old, seconds = dict(profile), {}
    old["per_op_overhead_seconds"] = calibrate_torch.median_seconds(lambda: x.add_(1), 5, min_seconds=0.2)
    for g in profile["gemm"]:
        key = (g["dtype"], g["m"], g["n"], g["k"])
        seconds[key] = seconds.get(key, 0.0) + 2 * g["m"] * g["n"] * g["k"] / g["flops_per_second"]
    old["gemm"] = [{"dtype": d, "m": m, "n": n, "k": k, "flops_per_second": 3 * 2 * m * n * k / t}
                   for (d, m, n, k), t in seconds.items()]
    return old


def predict(cli, args, profile, catalog):
    out = subprocess.run([cli, "account", *args, "--gpu-catalog", catalog, "--gpu", calibrate_torch.DEVICE_ID,
                          "--hardware-profile", profile, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + " → " + out.stderr.strip())
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--napkin-cli", default="build-test/cli/napkin-cli")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="two tiny shapes in fp32 and a small calibration")
    parser.add_argument("--max-ratio", type=float, default=0, help="exit 1 past this ratio either way")
    parser.add_argument("--shape-blind-only", action="store_true",
                        help="do not time the steps' own GEMM shapes ('after' then differs by orientation alone)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    # Denormals flushed, calibration and steps alike: GPT-2's tied head drives some gradients subnormal,
    # and Debian torch's generic BLAS then ran one 1M-parameter fp32 step 6× slower (8.3 s against 1.3 s
    # flushed, aten::mm 6.3 s of it). Napkin counts the work, not the values; a GPU's tensor cores take
    # subnormals at full rate.
    torch.set_flush_denormal(True)
    torch.manual_seed(0)
    started = time.time()
    runs = [(style, s, dtype) for style, s, dtypes in (QUICK if args.quick else SHAPES)
            for dtype in (("fp32",) if args.quick else dtypes)]
    profile, catalog = calibrate_torch.calibrate(repeats=5, quick=args.quick)
    with tempfile.TemporaryDirectory() as tmp:
        paths = {name: os.path.join(tmp, name + ".json") for name in ("before", "after", "catalog")}

        def write(name, doc):
            with open(paths[name], "w") as f:
                json.dump(doc, f)

        write("catalog", catalog)
        write("before", shape_blind(profile))
        print(f"calibration: {profile['source']}")
        print(f"  bandwidth {profile['memory_bandwidth_bytes_per_second']:.3g} B/s, per-op overhead "
              f"{profile['per_op_overhead_seconds'] * 1e6:.2f} µs, load average {os.getloadavg()[0]:.1f}")
        print("predicted / measured per phase: forward, backward, optimizer, step; 'before' is the shape-blind "
              "lookup (one rate per generic shape, orientations averaged, the update at the elementwise rate) on "
              "the same generic measurements; 'after' adds the step's own GEMM shapes and update, timed just "
              "before its steps")
        print(f"{'model':<40} {'dtype':<5} {'params':>9} {'measured s':>10} {'predicted s':>11} "
              f"{'fwd':>5} {'bwd':>5} {'opt':>5} {'step':>5} | before: {'fwd':>5} {'bwd':>5} {'opt':>5} {'step':>5}")
        deviations = {"after": {k: [] for k in PHASES + ("step",)}, "before": {k: [] for k in PHASES + ("step",)}}
        failures = 0
        for style, s, dtype in runs:
            model, cli_args = model_and_args(style, s, dtype)
            # This step's own GEMM shapes (read from its ledger, all three orientations) and its optimizer
            # update, timed in the minute before its steps run: on a machine shared with other work the rates
            # drift by tens of percent over minutes, so calibration and steps are kept close in time.
            account = predict(args.napkin_cli, cli_args, paths["before"], paths["catalog"])
            after = json.loads(json.dumps(profile))
            if not args.shape_blind_only:
                calibrate_torch.add_step_measurements(after, 5, [account])
            write("after", after)
            docs = {name: predict(args.napkin_cli, cli_args, paths[name], paths["catalog"])
                    for name in ("before", "after")}
            doc = docs["after"]
            params = sum(p.numel() for p in model.parameters())
            # Work counts: the same model on both sides before any time is compared.
            if doc["parameters"] != params:
                print(f"parameters differ: napkin {doc['parameters']}, torch {params}")
                failures += 1
            if not doc["step_time"]["predicted"]:
                print(f"{style} {s}: not predicted: {doc['step_time']['why_not']}")
                failures += 1
                continue
            measured = measure_step(model, s, args.steps)
            ratios = {}
            for name, d in docs.items():
                predicted = predicted_phases(d["step_time"])
                ratios[name] = {key: predicted[key] / measured[key] for key in predicted}
                for key, r in ratios[name].items():
                    deviations[name][key].append(abs(r - 1))
            label = f"{style} d {s['d']} L {s['layers']} V {s['vocab']} s {s['seq']} b {s['batch']}"
            a, b = ratios["after"], ratios["before"]
            print(f"{label:<40} {dtype:<5} {params:>9} {measured['step']:>10.4f} {doc['step_time']['seconds']:>11.4f} "
                  f"{a['forward']:>5.2f} {a['backward']:>5.2f} {a['optimizer']:>5.2f} {a['step']:>5.2f} | "
                  f"        {b['forward']:>5.2f} {b['backward']:>5.2f} {b['optimizer']:>5.2f} {b['step']:>5.2f}")
            if args.max_ratio and not (1 / args.max_ratio <= a["step"] <= args.max_ratio):
                failures += 1
        for name in ("after", "before"):
            if deviations[name]["step"]:
                print(f"{name}: median / worst |predicted/measured − 1|: " + ", ".join(
                    f"{key} {statistics.median(v):.3f} / {max(v):.3f}" for key, v in deviations[name].items())
                    + f" over {len(deviations[name]['step'])} runs")
        print(f"({time.time() - started:.0f} s, load average {os.getloadavg()[0]:.1f})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

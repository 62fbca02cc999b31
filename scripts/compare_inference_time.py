#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Napkin's predicted prefill and decode (napkin-cli infer's prefill_time and decode_time) against torch on
this CPU, in the same run.

Calibrates first (scripts/calibrate_torch.py: torch.mm at a few shapes, elementwise bandwidth, per-op
dispatch), then for each small Llama-style model (Hugging Face's eager ops: RMSNorm with its statistics in
fp32, q/k/v projections, RoPE, a preallocated KV cache, repeat_kv for grouped-query attention, QKᵀ / √d_h,
the causal mask in prefill, softmax in fp32, A·V, SwiGLU, the head over every position) asks `napkin-cli
infer --hardware-profile` for the setting once, times the setting's own GEMM shapes (calibrate_torch.py's
--step, from the infer ledgers), asks again, and times torch under torch.no_grad(): the prefill of B
sequences of P tokens into an empty cache, and one decode step of B sequences at position S − 1 (S keys).
Prints predicted / measured per pass, the prediction's seconds by kind (compute, memory, overhead), and the
median and worst |predicted/measured − 1|. A benchmark, not a test: its figures go to docs/benchmarks.md with
the command. With --max-ratio R it exits 1 when a prediction is off by more than R× either way (the test
suite's loose bound), after checking the work counts (parameters) agree.

    /usr/bin/python3 scripts/compare_inference_time.py --napkin-cli build-test/cli/napkin-cli [--quick]
        [--threads 1] [--repeats 5] [--max-ratio 3]
"""
import argparse
import json
import math
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
    from torch import nn  # noqa: E402
except ImportError:  # skipped (77) under ctest, unless NAPKIN_REQUIRE_TORCH=1 makes it a failure
    print("torch not installed" + (": required" if os.environ.get("NAPKIN_REQUIRE_TORCH") == "1" else ": skipped"))
    sys.exit(1 if os.environ.get("NAPKIN_REQUIRE_TORCH") == "1" else 77)

import calibrate_torch  # noqa: E402
from reference_models import RmsNorm, repeat_kv, rotate_half  # noqa: E402

# Llama-style shapes (d, heads, kv_heads, layers, ffn, vocab) and settings (batch B, context S, prompt P).
SHAPES = [
    (dict(d=128, heads=4, kv_heads=4, layers=2, ffn=344, vocab=2048), dict(batch=1, context=128, prompt=128)),
    (dict(d=256, heads=8, kv_heads=4, layers=4, ffn=688, vocab=8192), dict(batch=1, context=256, prompt=128)),
    (dict(d=256, heads=8, kv_heads=4, layers=4, ffn=688, vocab=8192), dict(batch=8, context=256, prompt=64)),
    (dict(d=512, heads=8, kv_heads=8, layers=4, ffn=1376, vocab=8192), dict(batch=1, context=512, prompt=256)),
    (dict(d=512, heads=8, kv_heads=2, layers=4, ffn=1376, vocab=8192), dict(batch=4, context=512, prompt=64)),
]
QUICK = SHAPES[:1]


class Layer(nn.Module):
    def __init__(self, s):
        super().__init__()
        d, a, g = s["d"], s["heads"], s["kv_heads"]
        self.a, self.g, self.dh = a, g, d // a
        self.norm1, self.norm2 = RmsNorm(d), RmsNorm(d)
        self.q = nn.Linear(d, a * self.dh, bias=False)
        self.k = nn.Linear(d, g * self.dh, bias=False)
        self.v = nn.Linear(d, g * self.dh, bias=False)
        self.o = nn.Linear(a * self.dh, d, bias=False)
        self.gate = nn.Linear(d, s["ffn"], bias=False)
        self.up = nn.Linear(d, s["ffn"], bias=False)
        self.down = nn.Linear(s["ffn"], d, bias=False)

    def forward(self, x, cos, sin, cache_k, cache_v, pos):
        B, T, _ = x.shape
        h = self.norm1(x)
        q = self.q(h).view(B, T, self.a, self.dh).transpose(1, 2)
        k = self.k(h).view(B, T, self.g, self.dh).transpose(1, 2)
        v = self.v(h).view(B, T, self.g, self.dh).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        cache_k[:, :, pos:pos + T] = k
        cache_v[:, :, pos:pos + T] = v
        keys = repeat_kv(cache_k[:, :, :pos + T], self.a // self.g)
        values = repeat_kv(cache_v[:, :, :pos + T], self.a // self.g)
        scores = torch.matmul(q, keys.transpose(2, 3)) / math.sqrt(self.dh)
        if T > 1:
            scores = scores + torch.full((T, T), float("-inf"), dtype=scores.dtype).triu(1)
        probs = torch.softmax(scores.float(), dim=-1).to(q.dtype)
        out = torch.matmul(probs, values).transpose(1, 2).contiguous().view(B, T, self.a * self.dh)
        x = x + self.o(out)
        h = self.norm2(x)
        return x + self.down(nn.functional.silu(self.gate(h)) * self.up(h))


class Model(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s
        self.embed = nn.Embedding(s["vocab"], s["d"])
        self.layers = nn.ModuleList(Layer(s) for _ in range(s["layers"]))
        self.norm = RmsNorm(s["d"])
        self.head = nn.Linear(s["d"], s["vocab"], bias=False)

    def rope(self, pos, T, dtype):
        dh = self.s["d"] // self.s["heads"]
        inv = 1.0 / (10000 ** (torch.arange(0, dh, 2).float() / dh))
        angles = torch.outer(torch.arange(pos, pos + T).float(), inv)
        emb = torch.cat((angles, angles), dim=-1)
        return emb.cos().to(dtype), emb.sin().to(dtype)

    def forward(self, idx, caches, pos, cos, sin):
        x = self.embed(idx)
        for layer, (ck, cv) in zip(self.layers, caches):
            x = layer(x, cos, sin, ck, cv, pos)
        return self.head(self.norm(x))


def cli_args(s, setting):
    dh = s["d"] // s["heads"]
    args = ["--model", "transformer", "--d-model", s["d"], "--heads", s["heads"], "--kv-heads", s["kv_heads"],
            "--head-dim", dh, "--layers", s["layers"], "--vocab", s["vocab"], "--seq", setting["context"],
            "--ffn-dim", s["ffn"], "--mlp", "swiglu", "--norm", "rmsnorm", "--position", "rope", "--bias", "off",
            "--embeddings", "untied", "--dropout", "off", "--attention-impl", "eager", "--weights", "fp32",
            "--kv-cache", "fp32", "--batch", setting["batch"], "--context", setting["context"],
            "--prompt", setting["prompt"]]
    return [str(a) for a in args]


def predict(cli, args, profile, catalog):
    out = subprocess.run([cli, "infer", *args, "--gpu-catalog", catalog, "--gpu", calibrate_torch.DEVICE_ID,
                          "--hardware-profile", profile, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + " → " + out.stderr.strip())
    return json.loads(out.stdout)


def measure(model, s, setting, repeats):
    """Median seconds of the prefill (B × P tokens into an empty cache) and of one decode step (B tokens at
    position S − 1, attending to S keys), under torch.no_grad()."""
    B, S, P = setting["batch"], setting["context"], setting["prompt"]
    g, dh = s["kv_heads"], s["d"] // s["heads"]
    gen = torch.Generator().manual_seed(0)
    caches = [(torch.randn(B, g, S, dh, generator=gen), torch.randn(B, g, S, dh, generator=gen))
              for _ in range(s["layers"])]
    prompt = torch.randint(0, s["vocab"], (B, P), generator=gen)
    token = torch.randint(0, s["vocab"], (B, 1), generator=gen)
    cos_p, sin_p = model.rope(0, P, torch.float32)
    cos_d, sin_d = model.rope(S - 1, 1, torch.float32)
    with torch.no_grad():
        prefill = calibrate_torch.median_seconds(lambda: model(prompt, caches, 0, cos_p, sin_p), repeats)
        decode = calibrate_torch.median_seconds(lambda: model(token, caches, S - 1, cos_d, sin_d), repeats)
    return {"prefill": prefill, "decode": decode}


def by_kind(time_doc):
    seconds = {}
    for row in time_doc["ledger"]:
        seconds[row["kind"]] = seconds.get(row["kind"], 0.0) + row["seconds"]
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--napkin-cli", default="build-test/cli/napkin-cli")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one tiny shape and a small calibration (the test suite's)")
    parser.add_argument("--max-ratio", type=float, default=0, help="exit 1 past this ratio either way")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)
    torch.manual_seed(0)
    started = time.time()
    profile, catalog = calibrate_torch.calibrate(repeats=5, quick=args.quick)
    failures = 0
    deviations = {"prefill": [], "decode": []}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {name: os.path.join(tmp, name + ".json") for name in ("generic", "own", "catalog")}

        def write(name, doc):
            with open(paths[name], "w") as f:
                json.dump(doc, f)

        write("catalog", catalog)
        write("generic", profile)
        print(f"calibration: {profile['source']}")
        print(f"  bandwidth {profile['memory_bandwidth_bytes_per_second']:.3g} B/s, per-op overhead "
              f"{profile['per_op_overhead_seconds'] * 1e6:.2f} µs, load average {os.getloadavg()[0]:.1f}")
        print(f"{'model':<34} {'B':>2} {'S':>4} {'P':>4} {'params':>8} | {'prefill s':>9} {'pred':>9} "
              f"{'ratio':>5} | {'decode s':>9} {'pred':>9} {'ratio':>5} | decode predicted by kind")
        for s, setting in (QUICK if args.quick else SHAPES):
            model = Model(s).float().eval()
            cargs = cli_args(s, setting)
            # The setting's own GEMM shapes, timed just before it runs (rates drift on a shared machine).
            first = predict(args.napkin_cli, cargs, paths["generic"], paths["catalog"])
            own = json.loads(json.dumps(profile))
            calibrate_torch.add_step_measurements(own, 5, [first])
            write("own", own)
            doc = predict(args.napkin_cli, cargs, paths["own"], paths["catalog"])
            params = sum(p.numel() for p in model.parameters())
            if doc["parameters"] != params:  # the same model on both sides before any time is compared
                print(f"parameters differ: napkin {doc['parameters']}, torch {params}")
                failures += 1
            if not (doc["prefill_time"]["predicted"] and doc["decode_time"]["predicted"]):
                print(f"{s}: not predicted: {doc['decode_time']['why_not']}")
                failures += 1
                continue
            measured = measure(model, s, setting, args.repeats)
            ratios = {}
            for key in ("prefill", "decode"):
                ratios[key] = doc[key + "_time"]["seconds"] / measured[key]
                deviations[key].append(abs(ratios[key] - 1))
                if args.max_ratio and not (1 / args.max_ratio <= ratios[key] <= args.max_ratio):
                    failures += 1
            kinds = ", ".join(f"{k} {v * 1e3:.3f} ms" for k, v in by_kind(doc["decode_time"]).items())
            label = f"d {s['d']} L {s['layers']} a {s['heads']} g {s['kv_heads']} V {s['vocab']}"
            print(f"{label:<34} {setting['batch']:>2} {setting['context']:>4} {setting['prompt']:>4} {params:>8} | "
                  f"{measured['prefill']:>9.5f} {doc['prefill_time']['seconds']:>9.5f} {ratios['prefill']:>5.2f} | "
                  f"{measured['decode']:>9.5f} {doc['decode_time']['seconds']:>9.5f} {ratios['decode']:>5.2f} | {kinds}")
        for key, v in deviations.items():
            if v:
                print(f"{key}: median / worst |predicted/measured − 1| {statistics.median(v):.3f} / {max(v):.3f} "
                      f"over {len(v)} settings")
        print(f"({time.time() - started:.0f} s, load average {os.getloadavg()[0]:.1f})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

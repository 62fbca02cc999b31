#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Cruncher's training recipes against PyTorch on the CPU, loss by loss.

`napkin-cli bench train --precision fp32,mixed-bf16 --json` trains one small Cruncher in both recipes on
the same data; PyTorch replays each from the same numbers, written out here independently of napkin's C++:
the initial weights from std::mt19937_64 (the C++ standard's algorithm, checked against its 10000th output)
and Box–Muller, as engine/numerics/gaussian_source.h draws them; the target function and batches from
Philox4x32-10 (checked against Random123's known answers) and Box–Muller, as engine/compute/counter_normal.h.

- fp32: torch.mm in float32, MSE loss, torch.optim (SGD, Adam): every loss within 1e-5 (relative).
- mixed-bf16 (the recipe as torch writes it by hand): fp32 master weights in torch.optim; each step the
  weights and the batch rounded to bf16, torch.mm in bf16, y widened to float32 for the loss, so dL/dy is
  rounded to bf16 by autograd, the bf16 gradients widened onto the master's .grad: within 2e-2. Not
  tighter, because torch 1.13's CPU bf16 mm is not exactly rounded on every shape (at 8×16·16×16, 94 of
  128 outputs differ from the double product rounded once to bf16; at 8×256·256×64 none do), so torch's
  losses move by a few bf16 ulps of the GEMM outputs per step (seen: 6.4e-4 at step 1, 9.0e-3 at most over
  five Adam steps). The recipe's exactly rounded numerics are checked to 1e-6 against oneDNN in
  tests/engine/compute/cpu/tst_cruncher_recipes.cpp.

usage: check_cruncher_recipes.py --cli PATH
Exit status: 0 all agree, 1 a disagreement, 77 torch missing (skipped; NAPKIN_REQUIRE_TORCH=1: failure).
"""
import argparse
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_harness  # noqa: E402,F401 (exits 77 without torch)
import torch  # noqa: E402

MASK64 = (1 << 64) - 1


class MT19937_64:
    """std::mt19937_64 (C++ [rand.predef]: 312 words, the 10000th output from seed 5489 is
    9981545732273789042)."""

    def __init__(self, seed):
        self.mt = [seed & MASK64]
        for i in range(1, 312):
            prev = self.mt[-1]
            self.mt.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & MASK64)
        self.index = 312

    def __call__(self):
        if self.index >= 312:
            upper, lower = 0xFFFFFFFF80000000, 0x7FFFFFFF
            for i in range(312):
                x = (self.mt[i] & upper) | (self.mt[(i + 1) % 312] & lower)
                xa = (x >> 1) ^ (0xB5026F5AA96619E9 if x & 1 else 0)
                self.mt[i] = self.mt[(i + 156) % 312] ^ xa
            self.index = 0
        x = self.mt[self.index]
        self.index += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000
        x ^= (x << 37) & 0xFFF7EEE000000000
        x ^= x >> 43
        return x & MASK64


def gaussian_source(seed):
    """engine/numerics/gaussian_source.h: u1 in (0, 1], u2 in [0, 1), one value per pair."""
    engine = MT19937_64(seed)
    while True:
        u1 = ((engine() >> 11) + 1.0) * 2.0 ** -53
        u2 = (engine() >> 11) * 2.0 ** -53
        yield math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def philox4x32_10(counter, key):
    c, (k0, k1) = list(counter), key
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ c[3] ^ k1, p0 & 0xFFFFFFFF]
    return c


def counter_normal(seed, stream, index):
    w = philox4x32_10((index & 0xFFFFFFFF, index >> 32, stream & 0xFFFFFFFF, stream >> 32),
                      (seed & 0xFFFFFFFF, seed >> 32))
    u1 = ((((w[1] << 32) | w[0]) >> 11) + 1.0) * 2.0 ** -53
    u2 = (((w[3] << 32) | w[2]) >> 11) * 2.0 ** -53
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def self_checks():
    engine = MT19937_64(5489)
    for _ in range(9999):
        engine()
    assert engine() == 9981545732273789042, "mt19937_64 is not the standard's"
    assert philox4x32_10((0, 0, 0, 0), (0, 0)) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]


def replay(model, steps, mixed):
    d, layers, b = model["dim"], model["layers"], model["batch"]
    scale = 1.0 / math.sqrt(d)
    init = gaussian_source(model["seed_init"])
    params = [torch.tensor([next(init) * scale for _ in range(d * d)], dtype=torch.float32).reshape(d, d)
              for _ in range(layers)]
    params.append(torch.tensor([next(init) * scale for _ in range(d)], dtype=torch.float32).reshape(d, 1))
    for p in params:
        p.requires_grad_(True)
    seed = model["seed_data"]
    truth = torch.tensor([counter_normal(seed, 0, j) * scale for j in range(d)], dtype=torch.float32)
    lr = model["learning_rate"]
    optimizer = torch.optim.SGD(params, lr=lr) if model["optimizer"] == "sgd" else torch.optim.Adam(params, lr=lr)
    losses = []
    for step in range(1, steps + 1):
        x = torch.tensor([counter_normal(seed, step, i) for i in range(b * d)], dtype=torch.float32).reshape(b, d)
        if mixed:
            x = x.bfloat16()
        t = (x.double() @ truth.double()).float()  # x as the GEMMs see it, summed in double
        optimizer.zero_grad(set_to_none=True)
        if mixed:
            working = [p.detach().bfloat16().requires_grad_(True) for p in params]
            h = x
            for w in working:
                h = h @ w
            y = h.squeeze(1).float()
        else:
            working = params
            h = x
            for w in working:
                h = h @ w
            y = h.squeeze(1)
        # The trainers sum the loss in double from y as stored; autograd's MSE gives dL/dy = 2(y − t)/B
        # (rounded to bf16 through .float()'s backward in mixed precision).
        ((y - t) ** 2).mean().backward()
        if mixed:
            for p, w in zip(params, working):
                p.grad = w.grad.float()
        losses.append(float(((y.detach().double() - t.double()) ** 2).mean()))
        optimizer.step()
    return losses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    args = parser.parse_args()
    self_checks()
    failures = 0
    for optimizer in ("sgd", "adam"):
        cmd = [args.cli, "bench", "train", "--dim", "64", "--layers", "2", "--batch", "32", "--steps", "5",
               "--optimizer", optimizer, "--precision", "fp32,mixed-bf16", "--seed-init", "3", "--seed-data", "7",
               "--threads", "1", "--json"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
            if "onednn" in done.stderr or "mixed-bf16" in done.stderr:
                print("mixed-bf16 needs the oneDNN backend: skipped")
                return torch_harness.SKIPPED
            return 1
        doc = json.loads(done.stdout)
        for run in doc["runs"]:
            recipe = run["model"]["precision"]
            mixed = recipe == "mixed-bf16"
            tolerance = 2e-2 if mixed else 1e-5
            theirs = replay(run["model"], len(run["loss"]), mixed)
            for step, (ours, torch_loss) in enumerate(zip(run["loss"], theirs), start=1):
                rel = abs(ours - torch_loss) / max(1.0, abs(torch_loss))
                ok = rel <= tolerance
                failures += not ok
                print(f"{optimizer:4} {recipe:10} step {step}: napkin {ours:.9g} torch {torch_loss:.9g}"
                      f" rel {rel:.2e} {'ok' if ok else 'FAIL (> %g)' % tolerance}")
    print("PASS" if failures == 0 else f"FAIL: {failures} losses disagree")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

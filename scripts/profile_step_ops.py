#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""One training step of a scripts/compare_step_time.py setup under torch.profiler, its GEMMs by shape and
every op's self time: the op-by-op side of docs/benchmarks.md's "Where the CPU prediction went wrong", to
set against `napkin-cli account --json`'s step_time.ledger for the same setup.

    /usr/bin/python3 scripts/profile_step_ops.py INDEX fp32|bf16     (INDEX into compare_step_time.SHAPES)
"""
import collections
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "validation"))

import torch  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

import compare_step_time  # noqa: E402


def main():
    index, dtype = int(sys.argv[1]), sys.argv[2]
    torch.set_num_threads(1)
    torch.set_flush_denormal(True)  # as compare_step_time.py runs its steps
    torch.manual_seed(0)
    style, s, _ = compare_step_time.SHAPES[index]
    model, _ = compare_step_time.model_and_args(style, s, dtype)
    gen = torch.Generator().manual_seed(0)
    idx = torch.randint(0, s["vocab"], (s["batch"], s["seq"]), generator=gen)
    targets = torch.randint(0, s["vocab"], (s["batch"], s["seq"]), generator=gen)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=False)

    def step():
        optimizer.zero_grad(set_to_none=True)
        model(idx, targets).backward()
        optimizer.step()

    step()
    step()  # two warm-ups: allocations, oneDNN primitives, the optimizer's state
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        step()
    gemms, self_time = collections.defaultdict(lambda: [0, 0.0]), collections.defaultdict(float)
    for e in prof.events():
        self_time[e.name] += e.self_cpu_time_total
        if e.name in ("aten::mm", "aten::addmm", "aten::bmm"):
            entry = gemms[(e.name, str(e.input_shapes[:3]))]
            entry[0] += 1
            entry[1] += e.self_cpu_time_total
    print("GEMMs by input shapes (ms, calls):")
    for (name, shapes), (calls, us) in sorted(gemms.items(), key=lambda kv: -kv[1][1]):
        print(f"{us / 1e3:10.2f}  x{calls:<3} {name} {shapes}")
    print("self time by op (ms), the 25 largest:")
    for name, us in sorted(self_time.items(), key=lambda kv: -kv[1])[:25]:
        print(f"{us / 1e3:10.2f}  {name}")


if __name__ == "__main__":
    main()

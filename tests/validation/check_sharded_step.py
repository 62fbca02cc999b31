#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A sharded training step on the CPU, per rank, against `napkin-cli account`.

Debian's torch 1.13 runs torch.distributed with the gloo backend in several CPU processes, and its
ZeroRedundancyOptimizer (ZeRO-1: Adam's state sharded over the ranks) takes a step there; each rank's
parameters, gradients and optimizer state are counted tensor by tensor and compared with memory_bytes.
Its FSDP does not import under Python 3.11 (torch/distributed/_shard/sharded_tensor/metadata.py declares a
dataclass field with a mutable default, which Python 3.11 refuses): the check prints that error and leaves
ZeRO-3/FSDP, HSDP and the gathered layers for a GPU run with a newer torch.

usage: check_sharded_step.py --cli PATH
Exit status: 0 all agree, 1 a disagreement, 77 torch missing (skipped; NAPKIN_REQUIRE_TORCH=1: failure).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import torch_harness  # noqa: E402,F401 (exits 77 without torch)
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

WIDTH, LAYERS, WORLD = 64, 4, 2  # four equal bias-free layers: ZeRO-1 splits them evenly over two ranks


def rank_bytes(rank, init, results):
    dist.init_process_group("gloo", init_method=init, rank=rank, world_size=WORLD)
    from torch.distributed.optim import ZeroRedundancyOptimizer

    torch.manual_seed(0)
    model = torch.nn.Sequential(*[torch.nn.Linear(WIDTH, WIDTH, bias=False) for _ in range(LAYERS)])
    opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW)
    model(torch.randn(2, WIDTH)).sum().backward()
    opt.step()

    def nbytes(tensors):
        return sum(t.numel() * t.element_size() for t in tensors)

    state = [t for s in opt.optim.state.values() for t in s.values() if torch.is_tensor(t) and t.dim() > 0]
    results[rank] = {"parameters": nbytes(model.parameters()),
                     "gradients": nbytes(p.grad for p in model.parameters()),
                     "optimizer_state": nbytes(state)}
    dist.destroy_process_group()


def fsdp_error():
    try:
        from torch.distributed.fsdp import FullyShardedDataParallel  # noqa: F401
    except Exception as e:  # the reason FSDP cannot be checked here
        return f"{type(e).__name__}: {e}"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    cli = parser.parse_args().cli
    parameters = WIDTH * WIDTH * LAYERS
    made = subprocess.run([cli, "account", "--model", "dense", "--params", str(parameters), "--gpus", str(WORLD),
                           "--zero", "1", "--precision", "fp32", "--optimizer", "adamw", "--json"],
                          capture_output=True, text=True)
    if made.returncode != 0:
        print(made.stderr)
        return 1
    predicted = json.loads(made.stdout)["memory_bytes"]

    with tempfile.TemporaryDirectory() as folder:
        manager = mp.Manager()
        results = manager.dict()
        mp.spawn(rank_bytes, args=("file://" + os.path.join(folder, "rendezvous"), results), nprocs=WORLD)
        measured = dict(results)

    failures = 0
    for rank in range(WORLD):
        for key in ("parameters", "gradients", "optimizer_state"):
            got, want = measured[rank][key], predicted[key]
            same = got == want
            failures += not same
            print(f"rank {rank} {key}: torch {got} B, napkin {want} B{'' if same else '  <-- differs'}")
    error = fsdp_error()
    print("FSDP: " + ("imports; not checked here" if error is None else "cannot run here: " + error))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

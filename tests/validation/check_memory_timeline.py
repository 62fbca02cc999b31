#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Napkin's memory timeline against PyTorch's CPU allocator over one training step, event by event.

For small nanoGPT-style GPT-2 stacks and Llama-style decoders, dense and Mixtral-style (reference_models.py;
odd sizes, fp32, recompute none, AdamW as napkin's default), one steady step — forward, cross-entropy, backward,
AdamW.step(), zero_grad(set_to_none=True) — runs on the CPU under torch.profiler(profile_memory=True),
and step_memory.py reads the bytes the allocator holds at each of napkin's events. Against
`napkin-cli account ... --activations-of pytorch-eager --json`'s memory_timeline[]:

1. Where napkin claims a component exactly: parameters and optimizer state (AdamW's two moments) at every
   event; gradients (all of p.grad) at the optimizer step and none at start and zero_grad; the
   activations at the end of forward (everything held but parameters, moments, buffers and inputs,
   less the loss value): equal, to the byte.
2. GPT-2 and Llama-style (followed op by op, engine/accounting/pytorch_eager_step_ops.h and
   pytorch_eager_llama_ops.h): every event from `forward layer
   1` to `backward embeddings` is the high-water mark of the allocations inside it, so torch's largest
   running sum inside each (less what the step holds that napkin never counts: AdamW's 0-d `step` tensors,
   the model's buffers, the token and target tensors) must equal napkin's event to the byte, and torch's
   bytes at `start` and `zero_grad` napkin's. Among the shapes are layer-bound ones (a small vocabulary, a
   wide MLP), whose step peaks inside a layer's backward, and for the Llama-style stacks grouped-query,
   multi-head and multi-query attention at batch 1 (matmul's reshapes are views) and above. Mixtral-style
   sparse MoE blocks too (pytorch_eager_moe_ops.h), 4 and 8 experts, top 1 and 2: their per-expert tensors
   follow the routing, so the reference routes balanced (reference_models' route(), token slot j
   to expert j mod E), the routing napkin's step assumes.
3. A family still layer by layer (none of these cases now): every event's total, torch's bytes at the
   event's end minus napkin's, must be exactly the sum of the differences timeline_differences.py names
   for that event, each computed from the shapes and napkin's own ledger, never from the measurement.
4. The optimizer step's peak inside (between the marks around AdamW.step(), less the same uncounted
   bytes) must equal napkin's optimizer-step total to the byte: torch.optim's single-tensor update holds
   per-parameter temporaries there (engine/accounting/pytorch_eager_optimizer.h). For a family still layer
   by layer every other event's peak inside is printed beside it, and at `forward head` and `backward loss`
   (the cross-entropy's transients) it must not pass napkin's event by more than what napkin never models
   there (the 0-d loss and seed, a Llama forward's RoPE locals).

usage: check_memory_timeline.py --cli PATH [--markdown]   (--markdown prints docs/memory-timeline.md's tables)
Exit status: 0 all agree, 1 a disagreement, 77 torch missing (skipped; NAPKIN_REQUIRE_TORCH=1: failure).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_harness  # noqa: E402,F401 (exits 77 without torch)
import torch  # noqa: E402
import reference_models  # noqa: E402
import step_memory  # noqa: E402
from timeline_differences import differences, never_modelled_inside, op_by_op  # noqa: E402

FP32 = 4
GPT2 = [  # d, heads, layers, vocab, seq, ffn: small, odd
    {"d": 48, "heads": 3, "layers": 3, "vocab": 37, "seq": 7, "ffn": 120, "bias": True, "tied": True},
    {"d": 40, "heads": 5, "layers": 2, "vocab": 53, "seq": 11, "ffn": 160, "bias": False, "tied": False},
    # Layer-bound: a small vocabulary (the issue's d 256, L 4, V 512, s 128) and a wide MLP, whose steps
    # peak inside a layer's backward, where napkin's layer-by-layer events were 1–4 % high.
    {"d": 256, "heads": 4, "layers": 4, "vocab": 512, "seq": 128, "ffn": 1024, "bias": True, "tied": True,
     "batch": 2},
    {"d": 64, "heads": 2, "layers": 3, "vocab": 64, "seq": 32, "ffn": 1024, "bias": False, "tied": False,
     "batch": 3},
]
LLAMA_BASE = {"mlp": "swiglu", "norm": "rmsnorm", "norm_bias": False, "qkv_bias": False, "bias": False,
              "experts": 1, "position": "rope"}
LLAMA = [  # GQA untied, multi-head tied (batch 3 and 2 unless given)
    dict(LLAMA_BASE, d=48, heads=6, kv_heads=2, head_dim=8, layers=3, vocab=37, seq=7, ffn=100, tied=False),
    dict(LLAMA_BASE, d=40, heads=4, kv_heads=4, head_dim=10, layers=2, vocab=53, seq=11, ffn=88, tied=True),
    # Batch 1: matmul's reshapes are views, so the bmms keep q after RoPE (and, without repeats, k and v).
    dict(LLAMA_BASE, d=48, heads=6, kv_heads=2, head_dim=8, layers=3, vocab=37, seq=7, ffn=100, tied=False,
         batch=1),
    dict(LLAMA_BASE, d=40, heads=4, kv_heads=4, head_dim=10, layers=2, vocab=53, seq=11, ffn=88, tied=True,
         batch=1),
    # Layer-bound (a small vocabulary, a wide MLP: the step peaks inside the last layer's backward), and
    # multi-query attention at s 64 (peaks in the head's backward).
    dict(LLAMA_BASE, d=64, heads=4, kv_heads=2, head_dim=16, layers=3, vocab=64, seq=32, ffn=256, tied=False,
         batch=2),
    dict(LLAMA_BASE, d=96, heads=4, kv_heads=1, head_dim=24, layers=2, vocab=50, seq=64, ffn=160, tied=True,
         batch=3),
    # Heads wider than d/a (a·d_h = 64 on d 48, as Gemma's): the q and output projections are not square.
    dict(LLAMA_BASE, d=48, heads=4, kv_heads=2, head_dim=16, layers=2, vocab=29, seq=9, ffn=72, tied=False,
         batch=2),
]
# Mixtral-style sparse MoE blocks (modeling_mixtral.py's eager loop over the experts), routed balanced:
# reference_models' route() sends token slot j to expert j mod E, the routing napkin's op-by-op
# step assumes (⌊b·s·K/E⌋ slots each, one more for the first b·s·K mod E experts).
MOE_BASE = dict(LLAMA_BASE, routing="balanced")
MOE = [
    # 42 slots on 4 experts (11, 11, 10, 10), top 2, grouped-query
    dict(MOE_BASE, d=48, heads=6, kv_heads=2, head_dim=8, layers=2, vocab=37, seq=7, ffn=40, tied=False,
         experts=4, top_k=2, batch=3),
    # 22 slots on 8 experts (3 for the first six, 2 for the last two), top 1, multi-head, tied
    dict(MOE_BASE, d=40, heads=4, kv_heads=4, head_dim=10, layers=2, vocab=53, seq=11, ffn=24, tied=True,
         experts=8, top_k=1, batch=2),
    # Layer-bound (wide experts, a small vocabulary): 128 slots on 8 experts, top 2
    dict(MOE_BASE, d=64, heads=4, kv_heads=2, head_dim=16, layers=3, vocab=64, seq=32, ffn=256, tied=False,
         experts=8, top_k=2, batch=2),
    # Top 1 of 4 at batch 1 (matmul's reshapes are views): 9 slots (3, 2, 2, 2)
    dict(MOE_BASE, d=48, heads=4, kv_heads=2, head_dim=16, layers=2, vocab=29, seq=9, ffn=72, tied=False,
         experts=4, top_k=1, batch=1),
]


def gpt2_args(s, batch):
    return ["--model", "transformer", "--d-model", s["d"], "--heads", s["heads"], "--layers", s["layers"],
            "--vocab", s["vocab"], "--seq", s["seq"], "--ffn-dim", s["ffn"], "--batch", batch,
            "--bias", "on" if s["bias"] else "off", "--embeddings", "tied" if s["tied"] else "untied",
            "--dropout", "off"]


def llama_args(s, batch):
    return ["--model", "transformer", "--d-model", s["d"], "--heads", s["heads"], "--kv-heads", s["kv_heads"],
            "--head-dim", s["head_dim"], "--layers", s["layers"], "--vocab", s["vocab"], "--seq", s["seq"],
            "--ffn-dim", s["ffn"], "--mlp", "swiglu", "--norm", "rmsnorm", "--position", "rope", "--bias", "off",
            "--embeddings", "tied" if s["tied"] else "untied", "--dropout", "off", "--batch", batch]


def moe_args(s, batch):
    return llama_args(s, batch) + ["--experts", s["experts"], "--top-k", s["top_k"],
                                   "--expert-ffn-dim", s["expert_ffn"]]


def napkin(cli, args):
    common = ["--precision", "fp32", "--optimizer", "adamw", "--optimizer-implementation", "single-tensor",
              "--recompute", "none", "--attention", "causal",
              "--activations-of", "pytorch-eager", "--json"]
    out = subprocess.run([cli, "account", *[str(a) for a in args], *common], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(map(str, args)) + " → " + out.stderr.strip())
    return json.loads(out.stdout)


def cases():
    """(family, label, model maker, blocks, shape, batch, napkin arguments)."""
    for i, s in enumerate(GPT2):
        s = dict(s, dropout=0.0, checkpoint=False)
        batch = s.get("batch", 2 + i)
        yield ("GPT-2", f"GPT-2 d {s['d']} a {s['heads']} L {s['layers']} V {s['vocab']} s {s['seq']} "
               f"f {s['ffn']} {'tied' if s['tied'] else 'untied'}", reference_models.Gpt2,
               lambda m: list(m.h), s, batch, gpt2_args(s, batch))
    for i, s in enumerate(LLAMA):
        s = dict(s, checkpoint=False)
        batch = s.get("batch", 3 - i)
        yield ("Llama", f"Llama d {s['d']} a {s['heads']} g {s['kv_heads']} d_h {s['head_dim']} L {s['layers']} "
               f"V {s['vocab']} s {s['seq']} f {s['ffn']} {'tied' if s['tied'] else 'untied'}",
               reference_models.Decoder, lambda m: list(m.layers), s, batch, llama_args(s, batch))
    for s in MOE:
        s = dict(s, checkpoint=False, expert_ffn=s["ffn"])
        batch = s["batch"]
        yield ("Mixtral", f"Mixtral d {s['d']} a {s['heads']} g {s['kv_heads']} d_h {s['head_dim']} "
               f"L {s['layers']} V {s['vocab']} s {s['seq']} E {s['experts']} k {s['top_k']} f {s['ffn']} "
               f"{'tied' if s['tied'] else 'untied'}", reference_models.Decoder, lambda m: list(m.layers), s,
               batch, moe_args(s, batch))


def check_case(family, make, blocks_of, s, batch, doc):
    """Rows (event, napkin, torch, difference, explained, why, peak inside) and failure messages."""
    marks = step_memory.measure(make, s, batch, blocks_of)
    events = doc["memory_timeline"]
    failures = []
    if [e["event"] for e in events] != [m[0] for m in marks]:
        return [], [f"events differ: napkin {[e['event'] for e in events]}, torch {[m[0] for m in marks]}"]
    expected = differences(family, s, batch, doc)
    rows = []
    for e, (name, held, peak, named) in zip(events, marks):
        b = {k: int(v) for k, v in e["bytes"].items()}
        uncounted = named["adam step"] + named["buffers"] + named["inputs"]
        torch_bytes = held - uncounted
        why = expected.get(name, [])
        explained = sum(n for n, _ in why)
        diff = torch_bytes - b["total"]
        if op_by_op(family) and name not in ("start", "optimizer step", "zero_grad"):
            # napkin's event is the high-water mark of the allocations inside it: torch's, to the byte.
            if peak - uncounted != b["total"]:
                failures.append(f"{name}: torch's peak inside {peak - uncounted:,} B, napkin's event "
                                f"{b['total']:,} B ({peak - uncounted - b['total']:+,})")
        elif diff != explained:
            failures.append(f"{name}: torch − napkin = {diff:+,} B, explained {explained:+,} B")
        # The components napkin claims exactly.
        if named["parameters"] != b["parameters"]:
            failures.append(f"{name}: parameters torch {named['parameters']:,}, napkin {b['parameters']:,}")
        if named["moments"] != b["optimizer_state"]:
            failures.append(f"{name}: AdamW moments torch {named['moments']:,}, napkin {b['optimizer_state']:,}")
        if name in ("start", "optimizer step", "zero_grad") and named["gradients"] != b["gradients"]:
            failures.append(f"{name}: gradients torch {named['gradients']:,}, napkin {b['gradients']:,}")
        if name == "optimizer step" and b["gradients"] != int(doc["memory_bytes"]["gradients"]):
            failures.append("optimizer step: napkin's gradients are not memory_bytes.gradients")
        if name == "optimizer step":
            if peak - uncounted != b["total"]:
                failures.append(f"optimizer step: torch's peak inside {peak - uncounted:,} B, napkin's event "
                                f"{b['total']:,} B")
            if b["temporary"] != int(doc.get("optimizer_step_temporaries", {}).get("bytes", -1)):
                failures.append("optimizer step: napkin's temporary is not optimizer_step_temporaries.bytes")
        # The loss's transients: napkin's event is a high-water mark, so torch's peak inside the event may
        # pass it only by what napkin never models (timeline_differences.never_modelled_inside).
        if name in ("forward head", "backward loss") and not op_by_op(family):
            allowed = never_modelled_inside(family, s, batch, name)
            if peak - uncounted > b["total"] + allowed:
                failures.append(f"{name}: torch's peak inside {peak - uncounted:,} B is above napkin's high-water "
                                f"mark {b['total']:,} B by {peak - uncounted - b['total']:,} B (allowed {allowed} B)")
        if name == "forward head":
            rest = held - uncounted - named["parameters"] - named["moments"] - named["gradients"] - FP32
            if rest != b["activations"] or b["activations"] != int(doc["memory_bytes"]["activations"]):
                failures.append(f"forward head: activations torch {rest:,} (less the 4-B loss), napkin "
                                f"{b['activations']:,}, memory_bytes {doc['memory_bytes']['activations']:,}")
        rows.append((name, b["total"], torch_bytes, diff, explained, "; ".join(f"{w} {n:+,}" for n, w in why),
                     peak - uncounted))
    return rows, failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--markdown", action="store_true")
    options = parser.parse_args()
    failures = 0
    for family, label, make, blocks_of, s, batch, args in cases():
        doc = napkin(options.cli, args)
        rows, problems = check_case(family, make, blocks_of, s, batch, doc)
        failures += len(problems)
        print(f"\n{label}, batch {batch}: napkin's peak {int(doc['peak_memory_bytes']):,} B at {doc['peak_event']}")
        if rows:
            at_end, inside = max(rows, key=lambda r: r[2]), max(rows, key=lambda r: r[6])
            print(f"torch's largest at an event's end {at_end[2]:,} B ({at_end[0]}), "
                  f"inside an event {inside[6]:,} B ({inside[0]})")
        if op_by_op(family):  # each event against torch's peak inside it
            if options.markdown:
                print("\n| event | napkin (high-water mark) | torch's peak inside | difference | torch at the end |\n"
                      "|---|---:|---:|---:|---:|")
            else:
                print(f"{'event':22} {'napkin':>10} {'peak in':>10} {'diff':>8}  {'at end':>10}")
            for name, ours, theirs, _, _, _, peak in rows:
                compared = theirs if name in ("start", "zero_grad") else peak
                if options.markdown:
                    print(f"| {name} | {ours:,} | {compared:,} | {compared - ours:+,} | {theirs:,} |")
                else:
                    print(f"{name:22} {ours:>10,} {compared:>10,} {compared - ours:>+8,}  {theirs:>10,}")
        elif options.markdown:
            print("\n| event | napkin | torch | difference | why | torch's peak inside |\n"
                  "|---|---:|---:|---:|---|---:|")
            for name, ours, theirs, diff, _, why, peak in rows:
                print(f"| {name} | {ours:,} | {theirs:,} | {diff:+,} | {why or '—'} | {peak:,} |")
        else:
            print(f"{'event':22} {'napkin':>10} {'torch':>10} {'diff':>8}  {'peak in':>10}  why")
            for name, ours, theirs, diff, explained, why, peak in rows:
                flag = "" if diff == explained else "  ← UNEXPLAINED"
                print(f"{name:22} {ours:>10,} {theirs:>10,} {diff:>+8,}  {peak:>10,}  {why}{flag}")
        for p in problems:
            print("  DISAGREES: " + p)
    print(f"\ntorch {torch.__version__}; {failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

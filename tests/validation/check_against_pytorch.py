#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Napkin against PyTorch itself: parameters, matmul FLOPs and the tensors autograd saves for backward.

1. Parameters: for every model preset napkin-cli lists whose architecture the torch.nn reference
   (reference_models.py) builds, sum(p.numel()) on the meta device equals napkin's `parameters`.
2. FLOPs: nanoGPT-style GPT-2 stacks and Llama-style decoders (RMSNorm, SwiGLU, RoPE, grouped-query
   attention as Hugging Face's modeling_llama.py eager path writes them; GQA, multi-head and multi-query,
   tied and untied) and Mixtral-style MoE decoders (modeling_mixtral.py's sparse MoE block: top-k router,
   experts as separate Linear modules) at small, odd shapes; one forward and one backward of the
   cross-entropy under a TorchDispatchMode that counts 2·m·n·k per aten.mm/addmm/bmm/baddbmm equal
   napkin's forward and backward (+ recompute, with torch.utils.checkpoint around each block) FLOPs
   with --attention full (eager PyTorch computes every score whatever the mask).
3. Saved activations: the same stacks in fp32 and bf16, recompute none and full (GPT-2: dropout off
   and on; Llama-style and MoE: off, as modeling_llama.py has none):
   every tensor autograd saves (walking the graph's _saved_* fields and checkpoint's saved_tensors,
   deduplicated by storage, parameters, buffers and the token/target inputs excluded) against napkin's
   `--activations-of pytorch-eager` ledger, as a multiset of (dtype, bytes) and in total, to the byte.
   MoE: the tensors each expert keeps are sized by the tokens the data routes to it; saved-tensor hooks in
   the reference note which storages each expert's run saved, and those are matched expert by expert
   against the ledger's `routed` rows scaled to that expert's token slots. Two rows follow CUDA's kernels where the CPU's differ, and are translated here: a dropout mask is
   torch.bool on CUDA (native_dropout) and a scaled mask in the activations' dtype on the CPU; LayerNorm's
   mean and 1/σ are fp32 on CUDA and the input's dtype on the CPU.

usage: check_against_pytorch.py --cli PATH [--markdown]   (--markdown prints docs/validation.md's table)
Exit status: 0 all agree, 1 a disagreement, 77 torch missing (skipped; NAPKIN_REQUIRE_TORCH=1: failure).
"""
import argparse
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_harness import MatmulFlops  # noqa: E402 (exits 77 without torch)
import torch  # noqa: E402
import reference_models  # noqa: E402

DTYPES = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float64: "fp64", torch.bool: "bool",
          torch.int64: "int64"}


def napkin(cli, args):
    out = subprocess.run([cli, "account", *args, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + " → " + out.stderr.strip())
    return json.loads(out.stdout)


def gpt2_args(s, batch, dtype, recompute, attention="causal"):
    args = ["--model", "transformer", "--d-model", s["d"], "--heads", s["heads"], "--layers", s["layers"],
            "--vocab", s["vocab"], "--seq", s["seq"], "--ffn-dim", s["ffn"], "--batch", batch,
            "--bias", "on" if s["bias"] else "off", "--embeddings", "tied" if s["tied"] else "untied",
            "--dropout", "on" if s["dropout"] else "off", "--precision", dtype, "--recompute", recompute,
            "--attention", attention, "--activations-of", "pytorch-eager"]
    return [str(a) for a in args]


def llama_args(s, batch, dtype, recompute, attention="causal"):
    args = ["--model", "transformer", "--d-model", s["d"], "--heads", s["heads"], "--kv-heads", s["kv_heads"],
            "--head-dim", s["head_dim"], "--layers", s["layers"], "--vocab", s["vocab"], "--seq", s["seq"],
            "--ffn-dim", s["ffn"], "--mlp", "swiglu", "--norm", "rmsnorm", "--position", "rope", "--bias", "off",
            "--embeddings", "tied" if s["tied"] else "untied", "--dropout", "off", "--batch", batch,
            "--precision", dtype, "--recompute", recompute, "--attention", attention,
            "--activations-of", "pytorch-eager"]
    return [str(a) for a in args]


def moe_args(s, batch, dtype, recompute, attention="causal"):
    return llama_args(s, batch, dtype, recompute, attention) + [
        "--experts", str(s["experts"]), "--top-k", str(s["top_k"]), "--expert-ffn-dim", str(s["expert_ffn"])]


def saved_tensors(loss, excluded):
    """{storage: (dtype, bytes, where)} for every storage autograd saved, parameters/buffers/inputs
    excluded."""
    found, seen, stack = {}, set(), [loss.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        values = []
        for name in dir(fn):
            if name.startswith("_saved_"):
                try:
                    values.append((name, getattr(fn, name)))
                except Exception:  # noqa: BLE001 (a field freed or not a tensor)
                    pass
        if hasattr(fn, "saved_tensors"):  # torch.utils.checkpoint's Function keeps its inputs there
            values += [("saved_tensors", t) for t in fn.saved_tensors]
        for name, value in values:
            for t in value if isinstance(value, (tuple, list)) else [value]:
                if isinstance(t, torch.Tensor):
                    storage = t.storage()
                    if storage.data_ptr() not in excluded:
                        found[storage.data_ptr()] = (DTYPES[t.dtype], storage.nbytes(),
                                                     type(fn).__name__ + "." + name)
        stack += [n for n, _ in fn.next_functions]
    return found


def expected_on_cpu(doc, act):
    """Napkin's rows as the CPU keeps them: (dtype, bytes) per tensor, per-layer rows once per layer."""
    act_bytes = 2 if act == "bf16" else 4
    layers = int(doc["activation_ledger"]["layers"])
    out = []
    batch = int(doc["batch"])
    for row in doc["activation_ledger"]["tensors"]:
        if row["routed"]:  # one tensor per expert: expected_of_expert()
            continue
        copies = layers if row["per_layer"] else 1
        elements = int(row["elements"])
        if batch == 1 and "contiguous copy" in row["name"]:
            # At batch 1 matmul's reshape of (1, a, s, d_h) is a view: bmm saves views of the QKV output,
            # one 3·h-wide storage with the same bytes as the three copies (the ledger's note says so).
            if row["name"].startswith("Q "):
                out += [(row["dtype"], 3 * int(row["bytes"]))] * copies
            continue
        if row["dtype"] == "mask":  # CPU dropout: the scaled mask in the activations' dtype
            tensors = [(act, elements * act_bytes)]
        elif "mean and 1/σ" in row["name"]:  # CPU LayerNorm: mean and rstd in the input's dtype
            tensors = [(act, elements // 2 * act_bytes)] * 2
        else:
            tensors = [(row["dtype"], int(row["bytes"]))]
        out += tensors * copies
    return out


def expected_of_expert(doc, tokens):
    """Napkin's routed rows for one expert `tokens` token slots chose: (dtype, bytes) per tensor. A
    routed row holds all b·s·K slots of the layer; each expert keeps its share."""
    arch = doc["architecture"]
    slots = int(doc["batch"]) * int(arch["seq"]) * int(arch["top_k"])
    out = []
    for row in doc["activation_ledger"]["tensors"]:
        if row["routed"]:
            per_slot, rest = divmod(int(row["bytes"]), slots)
            assert rest == 0, row
            out.append((row["dtype"], per_slot * tokens))
    return out


def routed_bytes(doc):
    ledger = doc["activation_ledger"]
    return int(ledger["layers"]) * sum(int(r["bytes"]) for r in ledger["tensors"] if r["routed"])


def run(make, s, batch, dtype, recompute):
    """Saved tensors, matmul FLOPs and (MoE) the experts' routing of one forward and backward of make(s)
    (Gpt2 or Decoder): routing is [(tokens, storages saved)] per expert that ran, over the layers."""
    torch.manual_seed(0)
    model = make(dict(s, checkpoint=recompute == "full"))
    if dtype == "bf16":
        model = model.to(torch.bfloat16)
    model.train()
    idx = torch.randint(0, s["vocab"], (batch, s["seq"]))
    targets = torch.randint(0, s["vocab"], (batch, s["seq"]))
    excluded = {p.data_ptr() for p in model.parameters()} | {b.data_ptr() for b in model.buffers()}
    excluded |= {idx.data_ptr(), targets.data_ptr()}
    layers = [m for m in model.modules() if hasattr(m, "routing")]
    for layer in layers:
        layer.routing = []
    counter = MatmulFlops()
    with counter:
        loss = model(idx, targets)
        saved = saved_tensors(loss, excluded)
        routing = [entry for layer in layers for entry in layer.routing]
        counter.phase = "backward"
        loss.backward()
    return saved, counter.flops, routing


GPT2_SHAPES = [  # d, heads, layers, vocab, seq, ffn: small, with odd sizes
    {"d": 64, "heads": 4, "layers": 2, "vocab": 100, "seq": 16, "ffn": 256, "bias": True, "tied": True},
    {"d": 48, "heads": 3, "layers": 3, "vocab": 37, "seq": 7, "ffn": 120, "bias": False, "tied": False},
    {"d": 40, "heads": 5, "layers": 1, "vocab": 53, "seq": 11, "ffn": 160, "bias": True, "tied": False},
]
LLAMA = {"mlp": "swiglu", "norm": "rmsnorm", "norm_bias": False, "qkv_bias": False, "bias": False, "experts": 1,
         "position": "rope"}
LLAMA_SHAPES = [  # GQA (kv_heads < heads), multi-head (=), multi-query with d_h·a != d; tied and untied
    dict(LLAMA, d=48, heads=6, kv_heads=2, head_dim=8, layers=2, vocab=37, seq=7, ffn=100, tied=False),
    dict(LLAMA, d=64, heads=4, kv_heads=4, head_dim=16, layers=3, vocab=101, seq=13, ffn=172, tied=True),
    dict(LLAMA, d=40, heads=4, kv_heads=1, head_dim=12, layers=1, vocab=53, seq=11, ffn=88, tied=False),
]
MOE_SHAPES = [  # Mixtral-style: GQA with E = 4, k = 2; multi-head, E = 3, k = 1; multi-query with d_h·a != d
    # and E = 8, k = 2 over s = 3 tokens, where at batch 1 at least two experts receive no token
    dict(LLAMA, d=48, heads=6, kv_heads=2, head_dim=8, layers=2, vocab=37, seq=7, ffn=40, tied=False, experts=4,
         top_k=2),
    dict(LLAMA, d=40, heads=4, kv_heads=4, head_dim=10, layers=1, vocab=53, seq=11, ffn=24, tied=True, experts=3,
         top_k=1),
    dict(LLAMA, d=36, heads=3, kv_heads=1, head_dim=14, layers=2, vocab=29, seq=3, ffn=20, tied=False, experts=8,
         top_k=2),
]


def cases():
    """(family, reference, napkin arguments, shape, label) for every case."""
    for s in GPT2_SHAPES:
        for dropout in (0.0, 0.1):
            yield ("GPT-2", reference_models.Gpt2, gpt2_args, dict(s, dropout=dropout),
                   f"d {s['d']} a {s['heads']} L {s['layers']} V {s['vocab']} s {s['seq']}",
                   f"dropout {'on' if dropout else 'off'}")
    for s in LLAMA_SHAPES:
        yield ("Llama", reference_models.Decoder, llama_args, s,
               f"d {s['d']} a {s['heads']} g {s['kv_heads']} d_h {s['head_dim']} L {s['layers']} V {s['vocab']} "
               f"s {s['seq']} f {s['ffn']}", "tied" if s["tied"] else "untied")
    for s in MOE_SHAPES:
        yield ("MoE", reference_models.Decoder, moe_args, dict(s, expert_ffn=s["ffn"]),
               f"d {s['d']} a {s['heads']} g {s['kv_heads']} d_h {s['head_dim']} L {s['layers']} V {s['vocab']} "
               f"s {s['seq']} E {s['experts']} k {s['top_k']} f {s['ffn']}", "tied" if s["tied"] else "untied")


def check_activations_and_flops(cli, rows):
    failures = 0
    count = collections.Counter()
    experts_run = experts_skipped = 0
    for family, make, args_of, shape, size, variant in cases():
        for dtype in ("fp32", "bf16"):
            for recompute in ("none", "full"):
                batch = 1 + sum(count.values()) % 3
                count[family] += 1
                doc = napkin(cli, args_of(shape, batch, dtype, recompute))
                built = shape  # the decoders are built from the description napkin prints
                if make is reference_models.Decoder:
                    built = reference_description(doc["architecture"])
                    assert all(built[k] == v for k, v in shape.items()), (shape, built)
                saved, flops, routing = run(make, built, batch, dtype, recompute)
                label = f"{family} {size} b {batch} {dtype} {variant} recompute {recompute}"
                # MoE: each expert's tensors, whose sizes follow how many token slots chose it, against
                # the routed rows' share for that many; the rest as for a dense stack.
                routed = set()
                for tokens, storages in routing:
                    mine = storages & saved.keys()
                    routed |= mine
                    got_e = collections.Counter(saved[p][:2] for p in mine)
                    want_e = collections.Counter(expected_of_expert(doc, tokens))
                    if got_e != want_e:
                        failures += 1
                        print(f"an expert's saved tensors differ: {label}, {tokens} token slots\n  napkin "
                              f"{sorted((want_e - got_e).items())}\n  torch {sorted((got_e - want_e).items())}")
                if family == "MoE" and recompute == "none":
                    experts_run += len(routing)
                    experts_skipped += shape["layers"] * shape["experts"] - len(routing)
                want = collections.Counter(expected_on_cpu(doc, dtype))
                got = collections.Counter(v[:2] for p, v in saved.items() if p not in routed)
                total_torch = sum(v[1] for v in saved.values())
                total_napkin = doc["memory_bytes"]["activations"]
                # CPU-kept bytes against napkin's expectation translated to the CPU (masks, statistics).
                cpu_total = sum(b for _, b in expected_on_cpu(doc, dtype)) + routed_bytes(doc)
                if want != got or cpu_total != total_torch:
                    failures += 1
                    print(f"saved activations differ: {label}\n  napkin (as the CPU keeps them) "
                          f"{sorted((want - got).items())}\n  torch {sorted((got - want).items())}")
                f_doc = napkin(cli, args_of(shape, batch, dtype, recompute, "full"))["flops_per_step"]
                if (flops["forward"], flops["backward"]) != (f_doc["forward"], f_doc["backward"] + f_doc["recompute"]):
                    failures += 1
                    print(f"FLOPs differ: {label}: torch {dict(flops)}, napkin {f_doc}")
                rows.append((label, "saved activations (B)", total_napkin, total_torch, cpu_total))
                rows.append((label, "forward + backward FLOPs", f_doc["total"], sum(flops.values()), None))
    note = f"MoE layers without recompute: {experts_run} experts ran, {experts_skipped} received no token"
    return count, failures, note


def reference_description(arch):
    """The reference's knobs from napkin's architecture object (every knob a shipped preset uses)."""
    return {"d": int(arch["d_model"]), "heads": int(arch["heads"]), "kv_heads": int(arch["kv_heads"]),
            "head_dim": int(arch["head_dim"]), "layers": int(arch["layers"]),
            "vocab": int(arch["vocab"]), "seq": int(arch["seq"]), "ffn": int(arch["ffn_dim"]),
            "expert_ffn": int(arch["expert_ffn_dim"]), "mlp": arch["mlp"], "norm": arch["norm"],
            "norm_bias": arch["norm_bias"] == "on", "qkv_bias": arch["qkv_bias"] == "on",
            "bias": arch["mlp_bias"] == "on" and arch["out_bias"] == "on", "experts": int(arch["experts"]),
            "position": arch["position"], "tied": arch["embeddings"] == "tied",
            "qk_norm": arch["qk_norm"], "norm_placement": arch["norm_placement"],
            "shared_ffn": int(arch["shared_ffn_dim"]), "shared_expert_gate": arch["shared_expert_gate"] == "on",
            "dense_layers": int(arch["dense_layers"]), "router_bias": arch["router_bias"] == "on",
            "attention_sinks": arch.get("attention_sinks") == "on",
            "top_k": int(arch["top_k"]),
            **{k: int(arch[k]) for k in ("kv_lora_rank", "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim",
                                         "v_head_dim")}}


def check_parameters(cli, rows):
    presets = json.loads(subprocess.run([cli, "presets", "--json"], capture_output=True, text=True,
                                        check=True).stdout)["model_presets"]
    failures = checked = 0
    skipped = []
    for p in presets:
        doc = napkin(cli, ["--model-preset", p["id"]])
        s = reference_description(doc["architecture"])
        if s["bias"] != (doc["architecture"]["out_bias"] == "on"):
            skipped.append(f"{p['id']} (an output bias apart from the MLP's)")
            continue
        with torch.device("meta") if hasattr(torch, "device") and hasattr(torch.device, "__enter__") else _meta():
            model = reference_models.Decoder(s)
        total = sum(t.numel() for t in model.parameters())
        checked += 1
        rows.append((p["id"], "parameters", doc["parameters"], total, None))
        if total != doc["parameters"]:
            failures += 1
            print(f"parameters differ: {p['id']}: torch {total}, napkin {doc['parameters']}")
    return checked, failures, skipped


class _meta:
    """torch 1.13 has no `with torch.device('meta')`: build every module's tensors on meta."""

    def __enter__(self):
        self.saved = torch.nn.Module.register_parameter
        original = self.saved

        def register(module, name, param):
            if param is not None:
                param = torch.nn.Parameter(param.to("meta"), param.requires_grad)
            original(module, name, param)

        torch.nn.Module.register_parameter = register

    def __exit__(self, *exc):
        torch.nn.Module.register_parameter = self.saved


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--markdown", action="store_true")
    options = parser.parse_args()
    rows = []
    count, failures, moe_note = check_activations_and_flops(options.cli, rows)
    checked, parameter_failures, skipped = check_parameters(options.cli, rows)
    failures += parameter_failures
    if options.markdown:
        print(f"PyTorch {torch.__version__}\n")
        print("| model | quantity | Napkin | PyTorch | ratio |\n|---|---|---:|---:|---:|")
        for label, quantity, ours, theirs, cpu in rows:
            note = f" (CPU-kept: {cpu:,})" if cpu is not None and cpu != ours else ""
            print(f"| {label} | {quantity} | {int(ours):,}{note} | {int(theirs):,} | "
                  f"{(cpu if cpu is not None else ours) / theirs:.6f} |")
    families = ", ".join(f"{n} {family}-style" for family, n in count.items())
    print(f"{families} cases (saved activations and FLOPs), {checked} presets' parameters; "
          f"{failures} disagreements; parameters not built by the reference: {', '.join(skipped) or 'none'}; "
          f"{moe_note}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

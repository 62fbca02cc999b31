#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""napkin-cli account --finetune lora against PyTorch itself: trainable and total parameters, and the
matmul FLOPs of one forward and one backward, for small transformers with LoRA adapters written in plain
torch.nn (no PEFT).

Each case builds the model Napkin describes (a Llama-style block: RMSNorm, SwiGLU, GQA, untied head; or a
GPT-2-style block: LayerNorm, GELU, biases, tied head), freezes every base parameter, adds B·A adapters
(A: in → r, B: r → out, no bias, B scaled by alpha/r) on the targeted projections, and runs one forward
and one backward of the cross-entropy under a TorchDispatchMode that counts 2·m·n·k for every aten.mm,
addmm, bmm and baddbmm. Autograd computes only the gradients something trainable needs, which is what
Napkin's fine-tuning FLOPs claim: no weight gradient for a frozen matrix, and no dL/dx in the first
layer until its first adapter. Attention is unmasked (napkin-cli --attention full): eager PyTorch
computes every score whatever the mask.

Saved activations: the same adapters on tests/validation/reference_models.py's GPT-2 (with q, k and v as
three Linear modules, the roles LoRA targets) and Llama-style decoder; every tensor autograd saves
(check_against_pytorch.py's walk: grad_fn._saved_* and checkpoint's saved_tensors, deduplicated by
storage, parameters, buffers and inputs excluded) against `--activations-of pytorch-eager`'s ledger, as
a (dtype, bytes) multiset and in total, to the byte, in fp32 and bf16, recompute none and full (with
PEFT's enable_input_require_grads(): the embeddings' output requires grad, or the reentrant checkpoint
gives layer 1's adapters no gradient).

usage: lora_torch_check.py --cli PATH
Exit status: 0 every case agrees, 1 a disagreement, 77 torch is not installed (skipped; with
NAPKIN_REQUIRE_TORCH=1 that is a failure).
"""
import argparse
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "validation"))
from torch_harness import MatmulFlops  # noqa: E402 (exits 77 without torch)
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import reference_models  # noqa: E402
from check_against_pytorch import (LLAMA_SHAPES, GPT2_SHAPES, gpt2_args, llama_args, napkin,  # noqa: E402
                                   saved_tensors)


class Lora(torch.nn.Module):
    def __init__(self, base, rank, alpha):
        super().__init__()
        self.base = base
        self.a = torch.nn.Linear(base.in_features, rank, bias=False)
        self.b = torch.nn.Linear(rank, base.out_features, bias=False)
        torch.nn.init.normal_(self.b.weight)  # PEFT starts B at zero; any value counts the same FLOPs
        self.scaling = alpha / rank

    def forward(self, x):
        return self.base(x) + self.b(self.a(x)) * self.scaling


class Block(torch.nn.Module):
    def __init__(self, s):
        super().__init__()
        d, dh = s["d"], s["d"] // s["heads"]
        norm = (lambda: torch.nn.LayerNorm(d)) if s["gpt2"] else (lambda: RmsNorm(d))
        bias = s["gpt2"]
        self.s = s
        self.norm1, self.norm2 = norm(), norm()
        self.q = torch.nn.Linear(d, s["heads"] * dh, bias=bias)
        self.k = torch.nn.Linear(d, s["kv"] * dh, bias=bias)
        self.v = torch.nn.Linear(d, s["kv"] * dh, bias=bias)
        self.o = torch.nn.Linear(s["heads"] * dh, d, bias=bias)
        if not s["gpt2"]:
            self.gate = torch.nn.Linear(d, s["ffn"], bias=bias)
        self.up = torch.nn.Linear(d, s["ffn"], bias=bias)
        self.down = torch.nn.Linear(s["ffn"], d, bias=bias)

    def forward(self, x):
        s = self.s
        b, t, d = x.shape
        a, g, dh = s["heads"], s["kv"], d // s["heads"]
        h = self.norm1(x)
        q = self.q(h).view(b, t, a, dh).transpose(1, 2)
        k = self.k(h).view(b, t, g, dh).transpose(1, 2).repeat_interleave(a // g, dim=1)
        v = self.v(h).view(b, t, g, dh).transpose(1, 2).repeat_interleave(a // g, dim=1)
        scores = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / dh ** 0.5, dim=-1)
        attended = torch.matmul(scores, v).transpose(1, 2).reshape(b, t, a * dh)
        x = x + self.o(attended)
        h = self.norm2(x)
        inner = F.gelu(self.up(h)) if s["gpt2"] else F.silu(self.gate(h)) * self.up(h)
        return x + self.down(inner)


class RmsNorm(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


class Model(torch.nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s
        self.embed = torch.nn.Embedding(s["vocab"], s["d"])
        self.positions = torch.nn.Embedding(s["seq"], s["d"]) if s["gpt2"] else None
        self.layers = torch.nn.ModuleList(Block(s) for _ in range(s["layers"]))
        self.norm = torch.nn.LayerNorm(s["d"]) if s["gpt2"] else RmsNorm(s["d"])
        self.head = None if s["gpt2"] else torch.nn.Linear(s["d"], s["vocab"], bias=False)

    def forward(self, tokens):
        x = self.embed(tokens)
        if self.positions is not None:
            x = x + self.positions(torch.arange(tokens.shape[1]))
        for layer in self.layers:
            x = layer(x)
        x = self.norm(x)
        return F.linear(x, self.embed.weight) if self.head is None else self.head(x)


def build(s, targets, rank, alpha):
    model = Model(s)
    for p in model.parameters():
        p.requires_grad_(False)
    for block in model.layers:
        for name in targets:
            if hasattr(block, name):
                setattr(block, name, Lora(getattr(block, name), rank, alpha))
    return model


def torch_figures(s, targets, rank, alpha, batch):
    torch.manual_seed(0)
    model = build(s, targets, rank, alpha)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    total = sum(p.numel() for p in model.parameters())
    tokens = torch.randint(0, s["vocab"], (batch, s["seq"]))
    counter = MatmulFlops()
    with counter:
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, s["vocab"]), tokens.reshape(-1))
        counter.phase = "backward"
        loss.backward()
    return {"trainable": trainable, "all": total, "forward": counter.flops["forward"],
            "backward": counter.flops["backward"]}


def napkin_figures(cli, s, targets, rank, alpha, batch):
    args = [cli, "account", "--model", "transformer", "--d-model", str(s["d"]), "--layers", str(s["layers"]),
            "--heads", str(s["heads"]), "--kv-heads", str(s["kv"]), "--vocab", str(s["vocab"]),
            "--seq", str(s["seq"]), "--ffn-dim", str(s["ffn"]), "--dropout", "off", "--attention", "full",
            "--batch", str(batch), "--finetune", "lora", "--lora-rank", str(rank), "--lora-alpha", str(alpha),
            "--lora-targets", ",".join(targets), "--json"]
    if not s["gpt2"]:
        args += ["--mlp", "swiglu", "--norm", "rmsnorm", "--bias", "off", "--embeddings", "untied",
                 "--position", "rope"]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + " → " + out.stderr)
    doc = json.loads(out.stdout)
    return {"trainable": doc["fine_tuning"]["trainable_parameters"],
            "all": doc["fine_tuning"]["all_parameters"],
            "forward": doc["flops_per_step"]["forward"], "backward": doc["flops_per_step"]["backward"]}


LLAMA = {"gpt2": False, "d": 16, "heads": 4, "kv": 2, "ffn": 24, "layers": 3, "vocab": 50, "seq": 8}
GPT2 = {"gpt2": True, "d": 16, "heads": 2, "kv": 2, "ffn": 64, "layers": 2, "vocab": 40, "seq": 6}
TARGET_SETS = [["q", "k", "v", "o", "gate", "up", "down"], ["q", "v"], ["k"], ["v"], ["o"], ["up"],
               ["down"], ["gate", "down"], ["q", "down"]]


class SplitAttention(reference_models.CausalSelfAttention):
    """nanoGPT's attention with q, k and v as three Linear modules (LoRA adapts each role on its own)."""

    def __init__(self, s):
        super().__init__(s)
        del self.c_attn
        self.q, self.k, self.v = (torch.nn.Linear(s["d"], s["d"], bias=s["bias"]) for _ in range(3))

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = (f(x).view(b, t, self.heads, c // self.heads).transpose(1, 2) for f in (self.q, self.k, self.v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / (k.size(-1) ** 0.5))
        att = att.masked_fill(self.bias[:, :, :t, :t] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        if self.p:
            att = F.dropout(att, self.p, self.training)
        y = self.c_proj((att @ v).transpose(1, 2).contiguous().view(b, t, c))
        return F.dropout(y, self.p, self.training) if self.p else y


class PeftLora(torch.nn.Module):
    """PEFT's lora.Linear forward with lora_dropout 0: base(x) + lora_B(lora_A(x)) * scaling."""

    def __init__(self, base, rank, alpha):
        super().__init__()
        self.base_layer = base
        self.lora_A = torch.nn.Linear(base.in_features, rank, bias=False)
        self.lora_B = torch.nn.Linear(rank, base.out_features, bias=False)
        self.scaling = alpha / rank

    def forward(self, x):
        return self.base_layer(x) + self.lora_B(self.lora_A(x)) * self.scaling


GPT2_ROLES = {"q": ("attn", "q"), "k": ("attn", "k"), "v": ("attn", "v"), "o": ("attn", "c_proj"),
              "up": ("mlp", "c_fc"), "down": ("mlp", "c_proj")}
LLAMA_ROLES = {"q": (None, "q"), "k": (None, "k"), "v": (None, "v"), "o": (None, "o"), "gate": ("mlp", "gate"),
               "up": ("mlp", "up"), "down": ("mlp", "down")}


def saved_by_torch(gpt2, s, targets, rank, batch, dtype, recompute):
    torch.manual_seed(0)
    s = dict(s, checkpoint=recompute == "full")
    model = reference_models.Gpt2(s) if gpt2 else reference_models.Decoder(s)
    if gpt2:
        for block in model.h:
            block.attn = SplitAttention(s)
    for p in model.parameters():
        p.requires_grad_(False)
    roles = GPT2_ROLES if gpt2 else LLAMA_ROLES
    for block in model.h if gpt2 else model.layers:
        for t in targets:
            owner = block if roles[t][0] is None else getattr(block, roles[t][0])
            setattr(owner, roles[t][1], PeftLora(getattr(owner, roles[t][1]), rank, 2 * rank))
    if recompute == "full":  # PEFT's enable_input_require_grads()
        (model.wte if gpt2 else model.embed).register_forward_hook(lambda m, i, out: out.requires_grad_(True))
    if dtype == "bf16":
        model = model.to(torch.bfloat16)
    model.train()
    idx = torch.randint(0, s["vocab"], (batch, s["seq"]))
    targets_ = torch.randint(0, s["vocab"], (batch, s["seq"]))
    excluded = {p.data_ptr() for p in model.parameters()} | {b.data_ptr() for b in model.buffers()}
    excluded |= {idx.data_ptr(), targets_.data_ptr()}
    loss = model(idx, targets_)
    saved = saved_tensors(loss, excluded).values()  # {storage: (dtype, bytes, where)}
    loss.backward()  # the adapters train: every B and A has a gradient
    assert all(p.grad is not None for p in model.parameters() if p.requires_grad)
    return [(d, b) for d, b, _ in saved]


def napkin_saved(doc, act):
    """The ledger as the CPU keeps it: (dtype, bytes) per tensor. Per-layer rows once per layer; "layers
    2–L: " rows hold L − 1 layers' copies; masks and LayerNorm statistics as check_against_pytorch.py
    translates them (the CPU's dropout keeps a scaled mask, its LayerNorm mean and 1/σ in the input's dtype)."""
    act_bytes = 2 if act == "bf16" else 4
    layers = int(doc["activation_ledger"]["layers"])
    out = []
    for row in doc["activation_ledger"]["tensors"]:
        copies = layers if row["per_layer"] else layers - 1 if row["name"].startswith("layers 2–L: ") else 1
        elements, nbytes = int(row["elements"]) // (copies if not row["per_layer"] else 1), int(row["bytes"])
        nbytes //= copies if not row["per_layer"] else 1
        if row["dtype"] == "mask":
            tensors = [(act, elements * act_bytes)]
        elif "mean and 1/σ" in row["name"]:
            tensors = [(act, elements // 2 * act_bytes)] * 2
        else:
            tensors = [(row["dtype"], nbytes)]
        out += tensors * copies
    return out


SAVED_CASES = [  # (GPT-2?, shape, targets, rank): several target sets, odd ranks, GQA and MHA, tied and untied
    (False, LLAMA_SHAPES[0], ["q", "k", "v", "o", "gate", "up", "down"], 3),
    (False, LLAMA_SHAPES[0], ["q", "v"], 5),
    (False, LLAMA_SHAPES[1], ["v"], 3),
    (False, LLAMA_SHAPES[1], ["k", "down"], 7),
    (False, LLAMA_SHAPES[2], ["o", "up"], 3),
    (False, LLAMA_SHAPES[2], ["gate"], 5),
    (True, dict(GPT2_SHAPES[0], dropout=0.0), ["q", "k", "v", "o", "up", "down"], 3),
    (True, dict(GPT2_SHAPES[1], dropout=0.0), ["q", "v"], 5),
    (True, dict(GPT2_SHAPES[1], dropout=0.0), ["k", "o"], 3),
    (True, dict(GPT2_SHAPES[2], dropout=0.0), ["down"], 7),
    (True, dict(GPT2_SHAPES[0], dropout=0.1), ["q", "v", "up"], 3),
    (True, dict(GPT2_SHAPES[1], dropout=0.1), ["o"], 5),
]


def check_saved_activations(cli):
    failures = cases = 0
    for gpt2, s, targets, rank in SAVED_CASES:
        for dtype in ("fp32", "bf16"):
            for recompute in ("none", "full"):
                batch = 1 + cases % 3
                cases += 1
                got = collections.Counter(saved_by_torch(gpt2, s, targets, rank, batch, dtype, recompute))
                args = (gpt2_args if gpt2 else llama_args)(s, batch, dtype, recompute)
                doc = napkin(cli, args + ["--finetune", "lora", "--lora-rank", str(rank), "--lora-alpha",
                                          str(2 * rank), "--lora-targets", ",".join(targets)])
                want = collections.Counter(napkin_saved(doc, dtype))
                torch_total = sum(b * k for (_, b), k in got.items())
                napkin_total = sum(b * k for (_, b), k in want.items())
                if want != got or torch_total != napkin_total:
                    failures += 1
                    print(f"saved activations differ: {'GPT-2' if gpt2 else 'Llama'}-style L {s['layers']} "
                          f"targets {','.join(targets)} r {rank} b {batch} {dtype} dropout {s.get('dropout', 0)} "
                          f"recompute {recompute}: torch {torch_total} B, napkin {napkin_total} B (as the CPU "
                          f"keeps it; {doc['memory_bytes']['activations']} B)\n  napkin only "
                          f"{sorted((want - got).items())}\n  torch only {sorted((got - want).items())}")
    return cases, failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    options = parser.parse_args()
    failures = 0
    cases = 0
    for name, shape in (("llama-style", LLAMA), ("gpt2-style", GPT2)):
        for targets in TARGET_SETS:
            if shape["gpt2"] and "gate" in targets:
                continue  # a GELU MLP has no gate projection
            for rank, batch in ((2, 1), (4, 2)):
                cases += 1
                want = torch_figures(shape, targets, rank, 8, batch)
                got = napkin_figures(options.cli, shape, targets, rank, 8, batch)
                if want != got:
                    failures += 1
                    print(f"{name} targets {','.join(targets)} r {rank} batch {batch}: torch {want}, "
                          f"napkin {got}")
    print(f"{cases - failures} of {cases} LoRA cases agree with torch")
    saved_cases, saved_failures = check_saved_activations(options.cli)
    print(f"{saved_cases - saved_failures} of {saved_cases} LoRA cases' saved activations agree with torch")
    return 1 if failures or saved_failures else 0


if __name__ == "__main__":
    sys.exit(main())

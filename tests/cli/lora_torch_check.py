#!/usr/bin/env python3
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

usage: lora_torch_check.py --cli PATH
Exit status: 0 every case agrees, 1 a disagreement, 77 torch is not installed (skipped; with
NAPKIN_REQUIRE_TORCH=1 that is a failure).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "validation"))
from torch_harness import MatmulFlops  # noqa: E402 (exits 77 without torch)
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


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
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

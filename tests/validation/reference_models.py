# SPDX-License-Identifier: GPL-3.0-or-later
"""Plain torch.nn transformers built from the description `napkin-cli account --json` prints, for
tests/validation/. GPT2 is nanoGPT's model (Karpathy's model.py: pre-LayerNorm, GELU MLP, eager causal
attention written as q @ kᵀ · scale, masked_fill, softmax, @ v, learned positions, tied head, dropout
after the embeddings, the attention probabilities, the attention output and the MLP). Decoder is a
Llama/Mistral/Qwen2/Mixtral-style stack (RMSNorm, SwiGLU or GeGLU, grouped-query or DeepSeek's latent
attention, QK-norm, pre/post/sandwich/parallel norms, RoPE without parameters, separate expert Linear
modules behind a router, shared experts) used for parameter counts on the meta device, where no memory
is allocated; its RMSNorm/SwiGLU/RoPE form without biases also runs forward and backward, as Hugging
Face's modeling_llama.py eager path writes it, dense or with Mixtral's sparse MoE block
(modeling_mixtral.py's MixtralSparseMoeBlock: top-k router, experts as separate Linear modules)."""
import contextlib
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint


class CausalSelfAttention(nn.Module):
    def __init__(self, s):
        super().__init__()
        d, self.heads, self.p = s["d"], s["heads"], s["dropout"]
        self.c_attn = nn.Linear(d, 3 * d, bias=s["bias"])
        self.c_proj = nn.Linear(d, d, bias=s["bias"])
        self.register_buffer("bias", torch.tril(torch.ones(s["seq"], s["seq"])).view(1, 1, s["seq"], s["seq"]))

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = self.c_attn(x).split(c, dim=2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :t, :t] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        if self.p:
            att = F.dropout(att, self.p, self.training)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        y = self.c_proj(y)
        return F.dropout(y, self.p, self.training) if self.p else y


class Mlp(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.c_fc = nn.Linear(s["d"], s["ffn"], bias=s["bias"])
        self.c_proj = nn.Linear(s["ffn"], s["d"], bias=s["bias"])
        self.p = s["dropout"]

    def forward(self, x):
        y = self.c_proj(F.gelu(self.c_fc(x)))
        return F.dropout(y, self.p, self.training) if self.p else y


class Gpt2Block(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.ln_1 = nn.LayerNorm(s["d"], elementwise_affine=True)
        self.attn = CausalSelfAttention(s)
        self.ln_2 = nn.LayerNorm(s["d"])
        self.mlp = Mlp(s)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class Gpt2(nn.Module):
    """s: d, heads, layers, vocab, seq, ffn, bias, tied, dropout (a probability, 0: no dropout modules),
    checkpoint (torch.utils.checkpoint around each block)."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.wte = nn.Embedding(s["vocab"], s["d"])
        self.wpe = nn.Embedding(s["seq"], s["d"])
        self.h = nn.ModuleList(Gpt2Block(s) for _ in range(s["layers"]))
        self.ln_f = nn.LayerNorm(s["d"])
        self.lm_head = nn.Linear(s["d"], s["vocab"], bias=False)
        if s["tied"]:
            self.lm_head.weight = self.wte.weight
        if not s["bias"]:  # nanoGPT's bias=False: LayerNorm without bias too
            for m in self.modules():
                if isinstance(m, nn.LayerNorm):
                    m.bias = None

    def forward(self, idx, targets):
        pos = torch.arange(0, idx.size(1), dtype=torch.long, device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        if self.s["dropout"]:
            x = F.dropout(x, self.s["dropout"], self.training)
        for block in self.h:
            if self.s["checkpoint"]:
                x = torch.utils.checkpoint.checkpoint(block, x)
            else:
                x = block(x)
        logits = self.lm_head(self.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(x, n_rep):
    b, g, t, dh = x.shape
    if n_rep == 1:
        return x
    return x[:, :, None, :, :].expand(b, g, n_rep, t, dh).reshape(b, g * n_rep, t, dh)


class RmsNorm(nn.Module):
    """Hugging Face's LlamaRMSNorm: the statistics in fp32, the weight applied in the input's dtype."""

    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        x = x.to(torch.float32)
        variance = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + self.eps)
        return self.weight * x.to(dtype)


class Expert(nn.Module):
    def __init__(self, d, f, mlp, bias):
        super().__init__()
        self.up = nn.Linear(d, f, bias=bias)
        self.gate = nn.Linear(d, f, bias=bias) if mlp != "gelu" else None
        self.down = nn.Linear(f, d, bias=bias)
        self.act = F.silu if mlp == "swiglu" else lambda x: F.gelu(x, approximate="tanh")

    def forward(self, x):  # SwiGLU / GeGLU: down(act(gate(x)) * up(x)); GELU: down(gelu(up(x)))
        if self.gate is None:
            return self.down(self.act(self.up(x)))
        return self.down(self.act(self.gate(x)) * self.up(x))


class DecoderLayer(nn.Module):
    def __init__(self, s, index=0):
        super().__init__()
        d, a, g = s["d"], s["heads"], s["kv_heads"]
        dh = s["head_dim"]
        self.heads, self.kv_heads, self.head_dim = a, g, dh
        norm = (lambda: nn.LayerNorm(d)) if s["norm"] == "layernorm" else (lambda: RmsNorm(d))
        # Norms per layer by placement: pre and post 2 (OLMo-2's after the attention and the MLP), sandwich
        # 4 (Gemma 2: before and after each), parallel 1 (Falcon: one norm feeds attention and MLP).
        placement = s.get("norm_placement", "pre")
        self.norm1 = norm()
        self.norm2 = None if placement == "parallel" else norm()
        if placement == "sandwich":
            self.norm3, self.norm4 = norm(), norm()
        if s["norm"] == "layernorm" and not s["norm_bias"]:
            for m in self.modules():
                if isinstance(m, nn.LayerNorm):
                    m.bias = None
        if s.get("kv_lora_rank"):
            self.latent_attention(s)
        else:
            self.q = nn.Linear(d, a * dh, bias=s["qkv_bias"])
            self.k = nn.Linear(d, g * dh, bias=s["qkv_bias"])
            self.v = nn.Linear(d, g * dh, bias=s["qkv_bias"])
            self.o = nn.Linear(a * dh, d, bias=s["bias"])
            if s.get("attention_sinks"):  # gpt-oss: a learned logit per head joins the softmax (counted only)
                self.sinks = nn.Parameter(torch.zeros(a))
        qk_norm = s.get("qk_norm", "none")  # RMSNorm on queries and keys: per head (Qwen3) or whole (OLMo-2)
        if qk_norm != "none":
            self.q_norm = RmsNorm(dh if qk_norm == "head" else a * dh)
            self.k_norm = RmsNorm(dh if qk_norm == "head" else g * dh)
        if s["experts"] > 1 and index >= s.get("dense_layers", 0):  # the first k layers stay dense
            self.router = nn.Linear(d, s["experts"], bias=False)
            self.top_k = s["top_k"] if "top_k" in s else 1
            self.routing = None  # a list: the forward appends (tokens, saved storages) per expert it runs
            self.routing_rule = s.get("routing")  # tests/validation/: "balanced" or slots per expert (route())
            if s.get("router_bias"):  # DeepSeek-V3's e_score_correction_bias
                self.router_bias = nn.Parameter(torch.zeros(s["experts"]))
            self.experts = nn.ModuleList(Expert(d, s["expert_ffn"], s["mlp"], s["bias"])
                                         for _ in range(s["experts"]))
            if s.get("shared_ffn"):  # shared experts as one MLP of their summed width
                self.shared = Expert(d, s["shared_ffn"], s["mlp"], s["bias"])
            if s.get("shared_expert_gate"):  # Qwen2-MoE's sigmoid gate on the shared expert
                self.shared_gate = nn.Linear(d, 1, bias=False)
        else:
            self.mlp = Expert(d, s["ffn"], s["mlp"], s["bias"])

    def latent_attention(self, s):
        """DeepSeek-V2/V3's multi-head latent attention (modeling_deepseek.py): queries through a q_lora_rank
        bottleneck with its RMSNorm, keys and values from one kv_lora_rank latent with its RMSNorm plus a
        shared qk_rope_head_dim-wide RoPE key; no biases."""
        d, a = s["d"], s["heads"]
        qk, rope, v, q_rank, kv_rank = (s["qk_nope_head_dim"] + s["qk_rope_head_dim"], s["qk_rope_head_dim"],
                                        s["v_head_dim"], s["q_lora_rank"], s["kv_lora_rank"])
        if q_rank:
            self.q_a, self.q_a_norm, self.q_b = (nn.Linear(d, q_rank, bias=False), RmsNorm(q_rank),
                                                 nn.Linear(q_rank, a * qk, bias=False))
        else:
            self.q = nn.Linear(d, a * qk, bias=False)
        self.kv_a, self.kv_a_norm = nn.Linear(d, kv_rank + rope, bias=False), RmsNorm(kv_rank)
        self.kv_b = nn.Linear(kv_rank, a * (s["qk_nope_head_dim"] + v), bias=False)
        self.o = nn.Linear(a * v, d, bias=False)

    def attention(self, x, cos, sin, mask):
        """modeling_llama.py's eager path: RoPE by rotate_half, repeat_kv, softmax in fp32."""
        b, t, _ = x.shape
        q = self.q(x).view(b, t, -1, self.head_dim).transpose(1, 2)
        k = self.k(x).view(b, t, -1, self.head_dim).transpose(1, 2)
        v = self.v(x).view(b, t, -1, self.head_dim).transpose(1, 2)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        q = (q * cos) + (rotate_half(q) * sin)
        k = (k * cos) + (rotate_half(k) * sin)
        k = repeat_kv(k, self.heads // self.kv_heads)
        v = repeat_kv(v, self.heads // self.kv_heads)
        att = torch.matmul(q, k.transpose(2, 3)) * self.head_dim ** -0.5
        att = att + mask[:t, :t]
        att = F.softmax(att, dim=-1, dtype=torch.float32).to(q.dtype)
        y = torch.matmul(att, v).transpose(1, 2).contiguous()
        return self.o(y.reshape(b, t, -1).contiguous())

    def sparse_moe(self, x):
        """modeling_mixtral.py's MixtralSparseMoeBlock.forward (eager): router logits, softmax in fp32,
        top-k, renormalised, cast back; a loop over the experts that gathers each one's tokens by index,
        weights its output and index_add_s it into the result, skipping an expert no token chose."""
        b, t, d = x.shape
        x = x.view(-1, d)
        router_logits = self.router(x)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        if self.routing_rule:
            self.route(selected_experts)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        routing_weights = routing_weights.to(x.dtype)
        final = torch.zeros((b * t, d), dtype=x.dtype, device=x.device)
        expert_mask = F.one_hot(selected_experts, num_classes=len(self.experts)).permute(2, 1, 0)
        for e, expert in enumerate(self.experts):
            idx, top_x = torch.where(expert_mask[e])
            if top_x.shape[0] == 0:
                continue
            with self.routed(top_x.shape[0]):
                top_x_list, idx_list = top_x.tolist(), idx.tolist()
                current = x[None, top_x_list].reshape(-1, d)
                current = expert(current) * routing_weights[top_x_list, idx_list, None]
                final.index_add_(0, top_x, current.to(x.dtype))
        return final.reshape(b, t, d)

    def route(self, selected):
        """For tests/validation/check_memory_timeline.py: overwrite top-k's expert indices with a fixed routing.
        s["routing"] "balanced": a round robin, token slot j (token j // K, its (j mod K)-th choice) to expert
        j mod E, so that each expert gets ⌊b·s·K/E⌋ slots and the first (b·s·K mod E) one more: the routing
        napkin's op-by-op step assumes. A list: expert e gets list[e] slots, in the experts' order (for top-1
        steps, where a token's choices cannot collide). The pattern is a buffer made on the first forward
        (the model's buffers are not counted), and is copied through .data: no allocation, and topk's saved
        indices keep their version, so the step allocates and frees exactly what the data's own routing
        would, only with these counts."""
        if getattr(self, "fixed_routing", None) is None or self.fixed_routing.shape != selected.shape:
            if self.routing_rule == "balanced":
                pattern = torch.arange(selected.numel(), device=selected.device) % len(self.experts)
            else:
                pattern = torch.repeat_interleave(torch.arange(len(self.experts)), torch.tensor(self.routing_rule))
            self.register_buffer("fixed_routing", pattern.view(selected.shape), persistent=False)
        selected.data.copy_(self.fixed_routing)

    @contextlib.contextmanager
    def routed(self, tokens):
        """For tests/validation/: with `routing` a list, notes the storages autograd saves while one
        expert runs (saved-tensor hooks that hand the tensor back unchanged), so that the check can tell
        the per-expert tensors, whose sizes follow the data's routing, from the rest."""
        if self.routing is None:
            yield
            return
        storages = set()

        def pack(t):
            storages.add(t.storage().data_ptr())
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            yield
        self.routing.append((tokens, storages))

    def forward(self, x, cos, sin, mask):
        x = x + self.attention(self.norm1(x), cos, sin, mask)
        return x + (self.sparse_moe(self.norm2(x)) if hasattr(self, "router") else self.mlp(self.norm2(x)))


class Decoder(nn.Module):
    """A Llama/Mistral/Qwen2/Mixtral-style stack. Parameters for every such preset (built on the meta
    device); a forward and backward for Llama-style stacks (RMSNorm, SwiGLU, RoPE, GQA, no biases), dense
    or with Mixtral's sparse MoE block (s adds top_k), written as Hugging Face's modeling_llama.py and
    modeling_mixtral.py eager paths write them, with two departures that keep
    the matmul count to the model's own: RoPE's angles are position × inverse frequency as a product
    (Hugging Face: a matmul with k = 1), and the additive causal mask is a buffer (as nanoGPT's), so
    that torch.utils.checkpoint does not keep a per-step copy. s adds theta and checkpoint."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.embed = nn.Embedding(s["vocab"], s["d"])
        self.positions = nn.Embedding(s["seq"], s["d"]) if s["position"] == "learned" else None
        self.layers = nn.ModuleList(DecoderLayer(s, i) for i in range(s["layers"]))
        self.norm = nn.LayerNorm(s["d"]) if s["norm"] == "layernorm" else RmsNorm(s["d"])
        if s["norm"] == "layernorm" and not s["norm_bias"]:
            self.norm.bias = None
        self.head = None if s["tied"] else nn.Linear(s["d"], s["vocab"], bias=False)
        dh, device = s["head_dim"], self.embed.weight.device  # the meta device for parameter counts
        inv_freq = 1.0 / (s.get("theta", 10000.0) ** (torch.arange(0, dh, 2, device=device).float() / dh))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        mask = torch.full((s["seq"], s["seq"]), torch.finfo(torch.float32).min, device=device).triu(1)
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, idx, targets):
        s = self.s  # the forward describes pre-norm RMSNorm/SwiGLU/RoPE stacks, dense or Mixtral's MoE
        assert not s.get("shared_ffn") and not s.get("dense_layers") and not s.get("router_bias")
        assert s.get("qk_norm", "none") == "none" and not s.get("kv_lora_rank") and s.get("norm_placement", "pre") == "pre"
        assert s["norm"] == "rmsnorm" and s["mlp"] == "swiglu" and s["position"] == "rope"
        x = self.embed(idx)
        t = idx.size(1)
        with torch.no_grad():  # LlamaRotaryEmbedding: cos and sin of (1, s, d_h), once per forward
            freqs = (torch.arange(t, dtype=torch.float32, device=idx.device)[None, :, None]
                     * self.inv_freq[None, None, :])
            angles = torch.cat((freqs, freqs), dim=-1)
            cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
        for layer in self.layers:
            if self.s.get("checkpoint"):
                x = torch.utils.checkpoint.checkpoint(layer, x, cos, sin, self.mask)
            else:
                x = layer(x, cos, sin, self.mask)
        x = self.norm(x)
        logits = F.linear(x, self.embed.weight) if self.head is None else self.head(x)
        logits = logits.float()  # LlamaForCausalLM's loss upcasts the logits
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

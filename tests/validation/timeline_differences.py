# SPDX-License-Identifier: GPL-3.0-or-later
"""What PyTorch's held bytes at each of napkin's timeline events differ from napkin's by, and why, for
check_memory_timeline.py: each term from the shapes and napkin's own activation ledger, never from a
measurement, so that a change on either side shows as an unexplained difference.

Marks are the moment an event is over (step_memory.py); napkin's event bytes are its high-water mark
(docs/memory-timeline.md). So the differences are of two kinds: a tensor napkin places at another event
than the one PyTorch creates or frees it at, and what napkin's high-water mark still holds that PyTorch
has freed by the event's end. fp32, recompute none, no dropout, batch > 1.
"""
FP32 = 4

# Families napkin follows op by op (engine/accounting/pytorch_eager_step_ops.h, pytorch_eager_llama_ops.h):
# each event is the high-water mark inside it, compared with torch's peak inside. The differences below are
# what the layer-by-layer events (Mixtral's experts, 16-bit Llama-style steps) differ by.
OP_BY_OP = ("GPT-2", "Llama", "Mixtral")


def op_by_op(family):
    return family in OP_BY_OP

# Rows of napkin's head ledger that PyTorch makes at the embeddings, before the first block; napkin adds
# the whole head ledger at `forward head` and frees it at `backward head`.
MADE_AT_EMBEDDINGS = ("position ids", "RoPE cos", "RoPE sin")


def never_modelled_inside(family, s, batch, event):
    """Bytes torch may hold inside `event` beyond napkin's high-water mark: what napkin never models there
    (the 0-d loss and backward's seed; a Llama forward's RoPE freqs and angles, locals until it returns)."""
    locals_ = s["seq"] * (s["head_dim"] // 2 + s["head_dim"]) * FP32 if family == "Llama" else 0
    return 2 * FP32 + (locals_ if event.startswith("forward") else 0)


def differences(family, s, batch, doc):
    """{event name: [(bytes torch − napkin, why)]}; an event not listed differs by nothing. Op by op, torch's
    bytes at an event's end are below napkin's high-water mark by what the event frees after it: only the
    optimizer step's is named (the peaks inside are compared instead)."""
    if op_by_op(family):
        update = int(doc.get("optimizer_step_temporaries", {}).get("bytes", 0))
        return {"optimizer step": [(-update, "the update's temporaries, freed by step()'s end (napkin: held at "
                                             "the high-water mark, equal to torch's peak inside)")]} if update else {}
    n, h, vocab, layers = s["seq"] * batch, s["d"], s["vocab"], s["layers"]
    rows = doc["activation_ledger"]["tensors"]
    kept = sum(int(r["bytes"]) for r in rows if r["per_layer"])
    early = sum(int(r["bytes"]) for r in rows if not r["per_layer"] and r["name"].startswith(MADE_AT_EMBEDDINGS))
    early_names = ", ".join(r["name"].split(" (")[0] for r in rows
                            if not r["per_layer"] and r["name"].startswith(MADE_AT_EMBEDDINGS))
    dh = n * h * FP32  # one s·b·h tensor: a layer's output, dL/dh
    logits = n * vocab * FP32
    final_norm = h * FP32 * (2 if family == "GPT-2" and s["bias"] else 1)  # γ (and β)
    loss = (FP32, "the loss (0-d)")
    seed = (FP32, "backward's seed 1 (0-d)")

    def made_early(freed_by):
        return (early, f"{early_names}, made at the embeddings, {freed_by} (napkin: forward head to backward head)")

    def final_norm_grads():
        return (final_norm, "final norm's gradient, made here (napkin: at backward embeddings)")

    out = {}
    for l in range(1, layers + 1):
        out[f"forward layer {l}"] = [
            (dh, f"layer {l}'s output (napkin: the input {'layer ' + str(l + 1) if l < layers else 'the final norm'} "
                 "saves)"),
            made_early("held")]
        if family == "Llama":  # Decoder.forward's locals, freed when it returns
            d_h = s["head_dim"]
            out[f"forward layer {l}"].append(
                (n // batch * (d_h // 2 + d_h) * FP32, "RoPE's freqs and angles, locals of the forward"))
    # The cross-entropy's transients (pytorch_eager_loss.h), at napkin's high-water marks: the logits the
    # loss reads while it makes the log-softmax output, and dL/dlog-probs while log-softmax's backward
    # makes dL/dlogits. fp32 here, where a Llama's upcast is a no-op.
    out["forward head"] = [
        loss,
        (-logits, "the logits the loss reads, freed when the forward returns (napkin: held at the high-water mark)")]
    out["backward loss"] = [
        loss, seed,
        (-logits, "dL/dlog-probs, freed by the log-softmax's backward (napkin: held at the high-water mark)"),
        (-logits, "log-softmax output, freed by its backward (napkin: at backward head)"),
        (-FP32, "loss total weight (0-d), likewise")]
    out["backward head"] = [
        loss, seed,
        (-logits, "dL/dlogits, freed by the head's backward (napkin: held at the high-water mark)"),
        final_norm_grads(),
        made_early("held")]
    for l in range(layers, 0, -1):
        terms = [loss, seed,
                 (-kept, f"layer {l}'s saved tensors, freed by its backward (napkin: held at the high-water mark)"),
                 (-dh, f"dL/d(layer {l}'s output), likewise"),
                 final_norm_grads()]
        # GPT-2's position ids live until the position embedding's backward; RoPE's tables until the
        # last RoPE mul's backward, layer 1's.
        if family == "GPT-2" or l > 1:
            terms.append(made_early("held"))
        out[f"backward layer {l}"] = terms
    out["backward embeddings"] = [
        (-dh, "dL/d(embeddings' output), freed by their backward (napkin: held at the high-water mark)")]
    # torch.optim's per-tensor temporaries are gone when step() returns; napkin's event is its high-water
    # mark. Their size is checked against the profiler's peak inside the step (check_memory_timeline.py).
    update = int(doc.get("optimizer_step_temporaries", {}).get("bytes", 0))
    if update:
        out["optimizer step"] = [(-update, "the update's temporaries, freed by step()'s end (napkin: held at "
                                           "the high-water mark, equal to torch's peak inside)")]
    return out

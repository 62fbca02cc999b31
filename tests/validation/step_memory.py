# SPDX-License-Identifier: GPL-3.0-or-later
"""The CPU allocator's bytes over one PyTorch training step, at napkin's memory-timeline events, as
torch.profiler records them (profile_memory=True). For check_memory_timeline.py.

The profiler gives every allocation and free of c10's CPU allocator, in order, as a "[memory]" event with
its size (negative for a free), but no running total. So everything that lives in the step — the model,
the optimizer's state from a first step, the token and target tensors — is created inside the profile,
and the running sum of the events is then the bytes held. A moment of the step is marked by allocating
and freeing at once a byte tensor of a size nothing else allocates (MARK + k): the running sum just
before that allocation is the bytes held at the k-th mark, with no reliance on timestamps, whose
microseconds do not order an allocation against an op that begins in the same one.

Marks (napkin's event names; each the moment the event is over, its frees done):
  start                   before the forward of the profiled (second) step
  forward layer l         a forward hook on block l: its output exists
  forward head            the forward has returned the loss
  backward loss           dL/dlogits is complete (a hook on the logits)
  backward head           dL/d(the last block's output) is complete
  backward layer l        dL/d(block l's input) is complete (for l = 1 the embeddings' output)
  backward embeddings     loss.backward() has returned
  optimizer step, zero_grad  after optimizer.step() and optimizer.zero_grad(set_to_none=True)
Each span between two marks also yields its largest running sum (the high-water mark inside the event).
"""
import torch
from torch.profiler import ProfilerActivity, profile

MARK = 12_345_671  # odd and about 12 MB: no tensor of these small models has a size in [MARK, MARK + 1000)


class Marks:
    def __init__(self):
        self.names = []

    def __call__(self, name):
        self.names.append(name)
        m = torch.empty(MARK + len(self.names) - 1, dtype=torch.uint8)
        del m


def storage_bytes(tensors):
    """Bytes of the distinct storages among `tensors` (tied weights counted once)."""
    seen = {}
    for t in tensors:
        if isinstance(t, torch.Tensor):
            seen[t.storage().data_ptr()] = t.storage().nbytes()
    return sum(seen.values())


def held(model, optimizer, inputs):
    """What Python can name at a mark: parameters, gradients, optimizer state by kind, buffers, inputs."""
    params = list(model.parameters())
    state = [s for p in params for s in optimizer.state.get(p, {}).items()]
    return {"parameters": storage_bytes(params),
            "gradients": storage_bytes(p.grad for p in params if p.grad is not None),
            "moments": storage_bytes(v for k, v in state if k != "step"),
            "adam step": storage_bytes(v for k, v in state if k == "step"),
            "buffers": storage_bytes(model.buffers()),
            "inputs": storage_bytes(inputs)}


def measure(make, s, batch, blocks_of):
    """Per mark: (name, bytes held, largest bytes since the previous mark, what Python names there).
    make(s) builds the model (returning the cross-entropy loss); blocks_of(model) lists its blocks."""
    torch.manual_seed(0)
    torch.set_num_threads(1)  # one thread: every allocation in one ordered stream
    mark, named = Marks(), []

    def at(name):
        named.append(held(model, optimizer, (idx, targets)))
        mark(name)

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        model = make(s)
        model.train()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        idx = torch.randint(0, s["vocab"], (batch, s["seq"]))
        targets = torch.randint(0, s["vocab"], (batch, s["seq"]))
        model(idx, targets).backward()  # the first step creates AdamW's state; the profiled one is steady
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

        blocks = blocks_of(model)
        profiled = {"on": False}

        def forward_hook(i):
            def hook(module, args, out):
                if profiled["on"]:
                    at(f"forward layer {i + 1}")
                    # dL/d(block input) complete: the backward of block i + 1 is over.
                    x = args[0]
                    x.register_hook(lambda g, i=i: at(f"backward layer {i + 1}"))
                    if i + 1 == len(blocks):
                        out.register_hook(lambda g: at("backward head"))
            return hook

        for i, b in enumerate(blocks):
            b.register_forward_hook(forward_hook(i))

        profiled["on"] = True
        at("start")
        loss = model(idx, targets)
        at("forward head")
        logits_view(loss).register_hook(lambda grad_inputs, grad_outputs: at("backward loss"))
        loss.backward()
        del loss
        at("backward embeddings")
        optimizer.step()
        at("optimizer step")
        optimizer.zero_grad(set_to_none=True)
        at("zero_grad")
    return series(prof, mark.names, named)


def logits_view(loss):
    """The node after cross-entropy's: its hook runs once dL/dlogits exists and log_softmax's is freed."""
    nll = loss.grad_fn
    log_softmax = nll.next_functions[0][0]
    view = log_softmax.next_functions[0][0]
    names = [type(f).__name__ for f in (nll, log_softmax, view)]
    if names[:2] != ["NllLossBackward0", "LogSoftmaxBackward0"] or not names[2].startswith("View"):
        raise RuntimeError(f"unexpected loss graph {names}")
    return view


def series(prof, names, named):
    """Walk the profiler's memory events in order: the held bytes at each mark and the peak between."""
    total, peak, out = 0, 0, []
    for e in prof.profiler.kineto_results.events():
        if e.name() != "[memory]":
            continue
        n = e.nbytes()
        if MARK <= n < MARK + len(names):
            k = n - MARK
            # The first mark ends the setup (the model, the first step), not an event: no peak of its own.
            out.append((names[k], total, max(peak, total) if out else total, named[k]))
            peak = total
            continue
        if -MARK - len(names) < n <= -MARK:
            continue
        total += n
        peak = max(peak, total)
    if [o[0] for o in out] != names:
        raise RuntimeError(f"marks out of order: {[o[0] for o in out]}")
    return out

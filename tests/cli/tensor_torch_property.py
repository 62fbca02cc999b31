#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Property test: napkin-cli tensor against PyTorch itself, on random view chains.

A seeded generator builds chains of every operation napkin's expression language supports
(TensorOpKind in engine/tensor/tensor_expression.h) on random shapes: negative dims, size-0 and size-1
dimensions, stride-0 expands, strided slices, diagonals and unfolds, and now and then an argument that
PyTorch refuses. Each chain is run step by step in PyTorch and, all at once, through napkin-cli's own
`tensor --json` (tensor_chain_runner, one process for every chain). Per step it compares shape, stride,
storage offset, is_contiguous(), view or copy (and which storage: a view of an earlier copy must name
that copy), the storage's bytes for the chain's dtype, and the index of the first operation that fails.

Where both refuse an operation, the messages are compared too. A few differ for a reason, each listed
with it in KNOWN_MESSAGE_DIFFERENCES (most: the reference here is Debian's torch 1.13, and Napkin follows
current ATen); those are counted and printed, any other difference fails like a wrong stride.

usage: tensor_torch_property.py --runner PATH [--seed S] [--count N] [--max-steps K] [--show N]
Exit status: 0 all chains agree, 1 a disagreement, 2 bad usage, 77 torch is not installed (skipped;
NAPKIN_REQUIRE_TORCH=1 makes that a failure, as scripts/test.sh does).
"""
import argparse
import collections
import json
import math
import os
import random
import re
import subprocess
import sys
import warnings

SKIPPED = 77

# TensorOpKind, in its order. Each gets a generator below; coverage is counted and printed.
KINDS = ["index", "view", "reshape", "expand", "permute", "transpose", "t", "T", "mT", "contiguous",
         "clone", "unsqueeze", "squeeze", "flatten", "narrow", "select", "unfold", "diagonal"]
BAD = 0.05  # how often an argument is drawn from outside what PyTorch accepts
# napkin-cli's --dtype names and torch's dtypes (fp8 has no torch 1.13 counterpart).
DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp64": "float64", "int64": "int64",
          "int32": "int32", "int16": "int16", "int8": "int8", "uint8": "uint8", "bool": "bool"}

# (Napkin's message, torch 1.13's message, why they differ), as regular expressions.
KNOWN_MESSAGE_DIFFERENCES = [
    (r"narrow\(\): length must be non-negative\.", r".*",
     "narrow() with a negative length: current ATen checks the length first, in its own words; 1.13 has "
     "no such check and reports what else is wrong (the dim, the start, or running past the end)"),
    (r"expand: the number of sizes provided .*",
     r"expand\([^{]*\{\[[\d, ]*\]\}, size=\[[-\d, ]*\]\): the number of sizes provided .*",
     "expand() with fewer sizes than dimensions: the same check; Napkin leaves out the tensor's type and "
     "sizes, which ATen prints in front"),
    (r"position \d+: slice step cannot be zero", r".*",
     "a slice step of 0: Napkin refuses it while reading the expression, before anything else in that "
     "index is checked (torch checks the items in order: 'slice step cannot be zero' if nothing before fails)"),
    (r"The expanded size of the tensor \(-1\) isn't allowed in a leading, non-existing dimension \d+",
     r"numel: integer multiplication overflow",
     "expand(-1, ...) of a 0-d tensor: ATen's 0-d shortcut copies the sizes unchecked and fails later, "
     "multiplying -1 into numel"),
]


class Gen:
    """Draws one operation's Python spelling for a tensor of a given shape."""

    def __init__(self, rng):
        self.r = rng

    def bad(self):
        return self.r.random() < BAD

    def dim(self, n, extra=0):
        """A dim for n dimensions (+extra positions, for unsqueeze), often negative, rarely out of range."""
        m = max(n + extra, 1)
        if self.bad():
            return self.r.choice([m, -m - 1])
        return self.r.randint(-m, m - 1)

    def ints(self, values):
        """Sizes or dims as separate arguments, or now and then as one tuple (always, when empty)."""
        text = ", ".join(str(v) for v in values)
        if not values or self.r.random() < 0.25:
            return "(" + text + ("," if len(values) == 1 else "") + ")"
        return text

    def draw(self, kind, shape):
        return getattr(self, "op_" + kind)(list(shape))

    def op_index(self, shape):
        n = len(shape)
        addressed = self.r.randint(0, n + (1 if self.bad() else 0))
        ellipsis = self.r.randint(0, addressed) if self.r.random() < 0.3 else None
        items = []
        for i in range(addressed):
            if ellipsis is None or i < ellipsis:
                d = i
            else:
                d = n - (addressed - i)
            size = shape[d] if 0 <= d < n else 1
            items.append(self.index_item(size))
        if ellipsis is not None:
            items.insert(ellipsis, "...")
        for _ in range(self.r.choice([0, 0, 0, 1, 2])):
            items.insert(self.r.randint(0, len(items)), "None")
        if not items:
            items = [self.r.choice(["...", ":", "None"])]
        return "[" + ", ".join(items) + "]"

    def index_item(self, size):
        if self.r.random() < 0.4:
            if self.bad():
                return str(self.r.choice([size, -size - 1]))
            return str(self.r.randint(-size, size - 1)) if size > 0 else "0"
        bound = lambda: self.r.choice(["", str(self.r.randint(-size - 2, size + 2))])
        text = bound() + ":" + bound()
        if self.r.random() < 0.5:
            step = self.r.choice([-1, 0]) if self.bad() else self.r.randint(1, 3)
            text += ":" + str(step)
        return text

    def sizes_for(self, numel):
        """Sizes with product numel (size-1 entries sprinkled in), sometimes one -1, rarely wrong."""
        if numel == 0:
            sizes = [self.r.randint(1, 4) for _ in range(self.r.randint(0, 3))]
            sizes.insert(self.r.randint(0, len(sizes)), 0)
        else:
            primes, rest, p = [], numel, 2
            while rest > 1:
                while rest % p == 0:
                    primes.append(p)
                    rest //= p
                p += 1
            sizes = [1] * self.r.randint(1 if primes else 0, 4)
            for q in primes:
                sizes[self.r.randrange(len(sizes))] *= q
        if sizes and self.r.random() < 0.3:
            sizes[self.r.randrange(len(sizes))] = -1
        if self.bad():
            if sizes:
                sizes[self.r.randrange(len(sizes))] += 1
            else:
                sizes = [2]
        return sizes

    def op_view(self, shape):
        return ".view(" + self.ints(self.sizes_for(math.prod(shape))) + ")"

    def op_reshape(self, shape):
        return ".reshape(" + self.ints(self.sizes_for(math.prod(shape))) + ")"

    def op_expand(self, shape):
        sizes = []
        for s in shape:
            if s == 1:
                sizes.append(self.r.choice([1, 0, 2, 3, 4, -1]))
            else:
                sizes.append(s + 1 if self.bad() else self.r.choice([s, -1]))
        lead = [self.r.randint(0, 3) for _ in range(self.r.choice([0, 0, 1, 2]))]
        if lead and self.bad():
            lead[0] = -1
        sizes = lead + sizes
        if sizes and self.bad():
            sizes.pop(0)
        return ".expand(" + self.ints(sizes) + ")"

    def op_permute(self, shape):
        n = len(shape)
        dims = list(range(n))
        self.r.shuffle(dims)
        dims = [d - n if self.r.random() < 0.3 else d for d in dims]
        if self.bad():
            dims.append(dims[0] if dims else 0)
        return ".permute(" + self.ints(dims) + ")"

    def op_transpose(self, shape):
        name, a, b = self.r.choice([("transpose", "dim0", "dim1"), ("swapaxes", "axis0", "axis1"),
                                    ("swapdims", "dim0", "dim1")])
        d0, d1 = self.dim(len(shape)), self.dim(len(shape))
        if self.r.random() < 0.15:
            return f".{name}({a}={d0}, {b}={d1})"
        return f".{name}({d0}, {d1})"

    def op_t(self, shape):
        return ".t()"

    def op_T(self, shape):
        return ".T"

    def op_mT(self, shape):
        return ".mT"

    def op_contiguous(self, shape):
        return ".contiguous()"

    def op_clone(self, shape):
        return ".clone()"

    def op_unsqueeze(self, shape):
        d = self.dim(len(shape), extra=1)
        return f".unsqueeze(dim={d})" if self.r.random() < 0.15 else f".unsqueeze({d})"

    def op_squeeze(self, shape):
        if self.r.random() < 0.3:
            return ".squeeze()"
        d = self.dim(len(shape))
        return f".squeeze(dim={d})" if self.r.random() < 0.15 else f".squeeze({d})"

    def op_flatten(self, shape):
        n = len(shape)
        form = self.r.randint(0, 3)
        if form == 0:
            return ".flatten()"
        s, e = self.dim(n), self.dim(n)
        if form == 1:
            return f".flatten({s})"
        if form == 2:
            return f".flatten(end_dim={e})"
        return f".flatten(start_dim={s}, end_dim={e})" if self.r.random() < 0.3 else f".flatten({s}, {e})"

    def op_narrow(self, shape):
        n = len(shape)
        d = self.dim(n)
        size = shape[d] if -n <= d < n else 1
        start = self.r.randint(-size, size)
        room = size - (start + size if start < 0 else start)
        length = self.r.randint(0, max(room, 0))
        if self.bad():
            length = self.r.choice([room + 1, -1])
        return f".narrow({d}, {start}, {length})"

    def op_select(self, shape):
        n = len(shape)
        d = self.dim(n)
        size = shape[d] if -n <= d < n else 1
        index = self.r.choice([size, -size - 1]) if self.bad() or size == 0 else self.r.randint(-size, size - 1)
        return f".select(dim={d}, index={index})" if self.r.random() < 0.15 else f".select({d}, {index})"

    def op_unfold(self, shape):
        n = len(shape)
        d = self.dim(n)
        size = shape[d] if -n <= d < n else 1
        length = self.r.randint(0, size)
        step = self.r.randint(1, 3)
        if self.bad():
            length, step = self.r.choice([(size + 1, step), (length, 0)])
        return f".unfold({d}, {length}, {step})"

    def op_diagonal(self, shape):
        n = len(shape)
        offset = self.r.randint(-3, 3)
        d1 = self.dim(n)
        d2 = self.dim(n)
        if n >= 2 and not self.bad():
            while (d1 % n) == (d2 % n):
                d2 = self.dim(n)
        form = self.r.randint(0, 3)
        if form == 0:
            return ".diagonal()"
        if form == 1:
            return f".diagonal({offset})"
        if form == 2:
            return f".diagonal(offset={offset}, dim1={d1}, dim2={d2})"
        return f".diagonal({offset}, {d1}, {d2})"


def random_shape(r):
    n = r.choices([0, 1, 2, 3, 4], weights=[1, 3, 4, 4, 3])[0]
    return [r.choices([0, 1, 2, 3, 4, 5], weights=[1, 5, 4, 4, 3, 2])[0] for _ in range(n)]


def torch_step(torch_tensor, keys):
    """What napkin-cli reports of a step, read from PyTorch. keys maps a storage owner to its number."""
    owner = torch_tensor._base if torch_tensor._base is not None else torch_tensor
    storage = keys.setdefault(id(owner), len(keys))
    return {"shape": list(torch_tensor.shape), "stride": list(torch_tensor.stride()),
            "offset": torch_tensor.storage_offset(), "contiguous": torch_tensor.is_contiguous(),
            "storage": storage, "storage_bytes": torch_tensor.storage().nbytes()}


def draw_kind(r):
    """An operation kind; clone() three times as often as the others, since what it does depends on
    the whole chain before it (issue 20: its strides after expand, diagonal, strided slices, unfold)."""
    return r.choices(KINDS, weights=[3 if k == "clone" else 1 for k in KINDS])[0]


def applicable(kind, n):
    """False where PyTorch refuses the operation for any argument on an n-D tensor."""
    return not ((kind == "t" and n > 2) or (kind == "mT" and n == 1) or (kind == "diagonal" and n < 2) or
                (kind in ("narrow", "select") and n == 0))


def row_major(shape):
    """torch.empty(shape).stride(): sizes 0 and 1 count as 1 in the products."""
    strides, running = [], 1
    for size in reversed(shape):
        strides.insert(0, running)
        running *= max(size, 1)
    return tuple(strides)


def make_chain(torch, gen, r, max_steps):
    """A random chain, run in PyTorch as it is drawn: each operation is drawn for the shape PyTorch
    gave the step before. Stops at the first operation PyTorch refuses."""
    shape = random_shape(r)
    dtype = r.choice(list(DTYPES))
    x = torch.empty(shape, dtype=getattr(torch, DTYPES[dtype]))
    keys, alive = {}, [x]  # alive: keep every step's tensor so that id() stays unique
    steps, ops, expr = [torch_step(x, keys)], [], "x"
    error = None
    current = x
    reordered = 0
    for _ in range(r.randint(1, max_steps)):
        kind = draw_kind(r)
        while not applicable(kind, current.dim()) and r.random() < 0.9:
            kind = draw_kind(r)  # now and then keep it, for PyTorch's refusal
        suffix = gen.draw(kind, current.shape)
        ops.append(kind)
        expr += suffix
        try:
            current = eval("t" + suffix, {"t": current})  # the Python spelling is the test input
        except Exception as e:  # RuntimeError, IndexError, ValueError: PyTorch refuses the call
            error = {"step": len(steps), "message": str(e).split("\n")[0]}
            break
        alive.append(current)
        steps.append(torch_step(current, keys))
        if kind == "clone" and current.stride() not in (alive[-2].stride(), row_major(current.shape)):
            reordered += 1  # a clone laid out in its input's stride order
    return {"shape": shape, "dtype": dtype, "expr": expr, "ops": ops, "steps": steps, "error": error,
            "reordered_clones": reordered}


def run_napkin(runner, chains):
    lines = "".join((",".join(map(str, c["shape"])) or "()") + "\t" + c["dtype"] + "\t" + c["expr"] + "\n"
                    for c in chains)
    done = subprocess.run([runner], input=lines, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"tensor_chain_runner failed ({done.returncode}): {done.stderr}")
    results = [json.loads(line) for line in done.stdout.splitlines()]
    if len(results) != len(chains):
        sys.exit(f"tensor_chain_runner answered {len(results)} of {len(chains)} chains")
    return results


def checked_chains(torch, gen, r, args, batch=2000):
    """(chain, napkin's answer) pairs, a batch at a time so that a long run holds little in memory."""
    for first in range(0, args.count, batch):
        chains = [make_chain(torch, gen, r, args.max_steps) for _ in range(min(batch, args.count - first))]
        yield from zip(chains, run_napkin(args.runner, chains))


def compare(chain, result):
    """The first disagreement as (class, detail), or None; and the reason when the messages differ as
    KNOWN_MESSAGE_DIFFERENCES expects, else None."""
    if result["exit"] != 0 or result["document"] is None:
        return ("napkin-cli exit " + str(result["exit"]), result["stderr"].strip()), None
    doc = result["document"]
    napkin_steps, torch_steps = doc["steps"], chain["steps"]
    for i, (n, t) in enumerate(zip(napkin_steps, torch_steps)):
        kind = "x" if i == 0 else chain["ops"][i - 1]
        for field in ("shape", "stride", "offset", "contiguous", "storage", "storage_bytes"):
            if n[field] != t[field]:
                return (f"{kind}: {field}", f"step {i}: napkin {n[field]}, torch {t[field]}"), None
        if i > 0:
            torch_view = t["storage"] == torch_steps[i - 1]["storage"]
            if n["is_view"] != torch_view:
                return (f"{kind}: is_view", f"step {i}: napkin {n['is_view']}, torch {torch_view}"), None
    napkin_error, torch_error = doc["error"], chain["error"]
    napkin_fails = napkin_error["step"] if napkin_error else None
    torch_fails = torch_error["step"] if torch_error else None
    if napkin_fails != torch_fails or len(napkin_steps) != len(torch_steps):
        step = min(s for s in (napkin_fails, torch_fails, len(napkin_steps), len(torch_steps)) if s is not None)
        kind = chain["ops"][step - 1] if 0 < step <= len(chain["ops"]) else "?"
        detail = (f"napkin fails at {napkin_fails} ({napkin_error['message'] if napkin_error else '-'}); "
                  f"torch at {torch_fails} ({torch_error['message'] if torch_error else '-'})")
        return (f"{kind}: first failing operation", detail), None
    if napkin_error and napkin_error["message"] != torch_error["message"]:
        for napkin_text, torch_text, why in KNOWN_MESSAGE_DIFFERENCES:
            if re.fullmatch(napkin_text, napkin_error["message"]) and re.fullmatch(torch_text, torch_error["message"]):
                return None, why
        kind = chain["ops"][torch_fails - 1]
        return (f"{kind}: error message", f"napkin '{napkin_error['message']}', torch '{torch_error['message']}'"), None
    return None, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runner", required=True, help="the tensor_chain_runner executable")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--count", type=int, default=2000, help="chains")
    parser.add_argument("--max-steps", type=int, default=6, help="operations per chain, at most")
    parser.add_argument("--show", type=int, default=3, help="examples printed per disagreement class")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("torch is not installed for " + sys.executable + " (Debian: apt-get install python3-torch)")
        return 1 if os.environ.get("NAPKIN_REQUIRE_TORCH") == "1" else SKIPPED
    warnings.simplefilter("ignore")  # x.T on other than 2-D is deprecated in 1.13, and says so

    r = random.Random(args.seed)
    gen = Gen(r)
    classes = collections.defaultdict(list)
    known = collections.defaultdict(list)
    applied = collections.Counter()
    refused = collections.Counter()
    reordered_clones = 0
    for chain, result in checked_chains(torch, gen, r, args):
        reordered_clones += chain["reordered_clones"]
        for i, kind in enumerate(chain["ops"]):
            (refused if chain["error"] and chain["error"]["step"] == i + 1 else applied)[kind] += 1
        disagreement, why = compare(chain, result)
        case = f"--shape {','.join(map(str, chain['shape'])) or '()'} --dtype {chain['dtype']} '{chain['expr']}'"
        if disagreement:
            classes[disagreement[0]].append(f"{case}: {disagreement[1]}")
        elif why:
            known[why].append(f"{case}: napkin '{result['document']['error']['message']}', "
                              f"torch '{chain['error']['message']}'")

    agree = args.count - sum(len(v) for v in classes.values())
    print(f"torch {torch.__version__}, seed {args.seed}: {agree} of {args.count} chains agree "
          f"({100.0 * agree / max(args.count, 1):.3f}%) on shape, stride, offset, contiguity, view or copy, "
          f"storage bytes, the first failing operation and its message")
    print("operations applied / refused by PyTorch: " +
          ", ".join(f"{k} {applied[k]}/{refused[k]}" for k in KINDS))
    print(f"clones laid out in their input's stride order (strides neither the input's nor row-major): "
          f"{reordered_clones}")
    missing = [k for k in KINDS if applied[k] == 0] + ([] if reordered_clones else ["a reordering clone"])
    for name, found in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        print(f"DISAGREE {len(found):6d}  {name}")
        for example in found[:args.show]:
            print("          " + example)
    for why, found in sorted(known.items(), key=lambda kv: -len(kv[1])):
        print(f"known message difference {len(found):6d}  {why}")
        print("          " + found[0])
    if missing:
        print("never applied: " + ", ".join(missing))
    return 1 if classes or missing else 0


if __name__ == "__main__":
    sys.exit(main())

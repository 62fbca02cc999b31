#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Measure one training step of the model napkin describes, in plain PyTorch, for `napkin-cli compare`.

    scripts/measure-run.py [--cli napkin-cli] [--device cpu|cuda] [--steps 2] [--trace run.json]
                           [--snapshot run.pickle] -- NAPKIN ACCOUNT FLAGS...

The flags after `--` are `napkin-cli account`'s (a preset, --config config.json, or the model's own flags,
with --batch, --precision fp32|bf16 and --optimizer). The script asks napkin-cli for the model's
architecture (`account --json`), builds it with tests/validation/reference_models.py (nanoGPT's GPT-2 for a
GPT-2-style model, the Llama-style Decoder for RMSNorm/SwiGLU/RoPE stacks), and runs --steps training steps
(forward, cross-entropy, backward, optimizer.step(), zero_grad(set_to_none=True)) on random tokens under
torch.profiler(profile_memory=True). The first step makes the optimizer's state; the last is the measured
one, its phases named by record_function ranges "forward", "backward", "optimizer step", "zero_grad"
inside "ProfilerStep#N" (the earlier ones inside "warm-up step k"). Everything — model, optimizer, batch — is made inside the profile, so the trace's
allocated bytes are all the step holds. Each range carries its "ts" and "dur" (µs), which napkin-cli compare
reads as the step's time by phase; on CUDA each phase of the measured step waits for the device before its
range closes, so its duration is the device's work, not the host's queueing of it. The times are one step
under the profiler (on the CPU with one thread, as scripts/calibrate_torch.py calibrates by default): its
bookkeeping of every op and allocation is in them.

It writes the Chrome trace (--trace). Where torch's own export has no memory events (torch built without
Kineto, such as Debian's python3-torch 1.13, whose export_chrome_trace writes only the op ranges), the
script writes the trace itself in Kineto's form from the profiler's event list: "[memory]" instant events
with Bytes, Total Allocated (the running sum of the events: c10's CPU allocator keeps no cache) and Device
Type. It also names, under "napkin_not_modelled", what the run holds that no prediction counts: the token
ids and targets, the model's buffers (a causal mask, RoPE's inverse frequencies) and the optimizer's 0-d
step counters. Under "napkin_setup" it writes the napkin command the run was made with, and under
"napkin_scenario" the same setup as the app's scenario file (napkin-cli account --save-scenario), so that
opening the trace knows its setup and the app can set its page to it ("Use the run's setup"). On CUDA it also records the allocator's history and dumps the memory snapshot
(--snapshot).

Then it runs napkin-cli compare --trace run.json NAPKIN ACCOUNT FLAGS... and prints the command and its answer.
Add --activations-of pytorch-eager to the flags for the prediction that follows PyTorch's eager autograd,
and, for a CPU run's time, --gpu-catalog CATALOG --gpu this-cpu --hardware-profile PROFILE (both written by
scripts/calibrate_torch.py): without them the step is predicted from a GPU's figures, which compare says
are not comparable with a CPU run. The profile's text goes into the trace too ("napkin_hardware_profile"), so
that the app, opening the trace and using its setup, costs the step from the same profile.
torch.optim runs as torch would here by default (foreach on a GPU with torch >= 2.0, single-tensor
otherwise) and napkin is told so with --optimizer-implementation, unless the flags name one.
"""
import argparse
import json
import os
import pickle
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "validation"))

try:
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function
except ImportError:
    sys.exit("measure-run.py: PyTorch is not installed (pip install torch, or Debian's python3-torch)")
import reference_models  # noqa: E402 (tests/validation/, beside this script's folder)
from torch_optimizers import make_optimizer  # noqa: E402 (this script's folder)

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


def fail(message):
    sys.exit("measure-run.py: " + message)


def napkin_cli(path):
    if path:
        return path
    for candidate in (os.path.join(HERE, "..", "build", "cli", "napkin-cli"), shutil.which("napkin-cli")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    fail("napkin-cli not found: build it, or give --cli PATH")


def describe(cli, flags):
    """napkin's account --json for the flags, with the setup as the app's scenario file under "scenario"."""
    scenario_path = tempfile.mktemp(prefix="napkin-setup-", suffix=".json")
    try:
        out = subprocess.run([cli, "account", *flags, "--save-scenario", scenario_path, "--json"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            fail(out.stderr.strip() or "napkin-cli account failed")
        doc = json.loads(out.stdout)
        with open(scenario_path) as f:
            doc["scenario"] = f.read()
        return doc
    finally:
        if os.path.exists(scenario_path):
            os.remove(scenario_path)


def reference(doc):
    """(model class, its shape dict, blocks) for napkin's architecture, or a refusal naming what differs."""
    a = doc["architecture"]
    gpt2 = (a["mlp"] == "gelu" and a["norm"] == "layernorm" and a["position"] == "learned"
            and int(a["experts"]) == 1 and int(a["kv_heads"]) == int(a["heads"]) and a["norm_placement"] == "pre")
    recompute = doc["recompute"] if isinstance(doc["recompute"], str) else doc["recompute"].get("mode", "none")
    if recompute not in ("none", "full"):
        fail(f"--recompute {recompute}: the reference models run none or full (torch.utils.checkpoint)")
    if gpt2:
        s = {"d": int(a["d_model"]), "heads": int(a["heads"]), "layers": int(a["layers"]), "vocab": int(a["vocab"]),
             "seq": int(a["seq"]), "ffn": int(a["ffn_dim"]), "bias": a["mlp_bias"] == "on",
             "tied": a["embeddings"] == "tied", "dropout": 0.1 if a["dropout"] == "on" else 0.0,
             "checkpoint": recompute == "full"}
        return reference_models.Gpt2, s
    if a["mlp"] == "swiglu" and a["norm"] == "rmsnorm" and a["position"] == "rope":
        s = {"d": int(a["d_model"]), "heads": int(a["heads"]), "kv_heads": int(a["kv_heads"]),
             "head_dim": int(a["head_dim"]), "layers": int(a["layers"]), "vocab": int(a["vocab"]),
             "seq": int(a["seq"]), "ffn": int(a["ffn_dim"]), "expert_ffn": int(a["expert_ffn_dim"]),
             "mlp": "swiglu", "norm": "rmsnorm", "norm_bias": False, "qkv_bias": a["qkv_bias"] == "on",
             "bias": a["mlp_bias"] == "on", "experts": int(a["experts"]), "top_k": int(a["top_k"]),
             "position": "rope", "tied": a["embeddings"] == "tied", "checkpoint": recompute == "full"}
        return reference_models.Decoder, s
    fail("this architecture has no reference model here (GPT-2 style: GELU, LayerNorm, learned positions; "
         "Llama style: SwiGLU, RMSNorm, RoPE)")


def flag_value(flags, name):
    """The value of `name` in napkin's flags ("--name V" or "--name=V"), or None."""
    for i, f in enumerate(flags):
        if f == name and i + 1 < len(flags):
            return flags[i + 1]
        if f.startswith(name + "="):
            return f.split("=", 1)[1]
    return None


def storage_bytes(tensors):
    seen = {}
    for t in tensors:
        if isinstance(t, torch.Tensor):
            seen[t.storage().data_ptr()] = t.storage().nbytes()
    return sum(seen.values())


def step(model, optimizer, idx, targets, named, cuda=False):
    """One training step; `named`: its phases as record_function ranges (the measured step). On CUDA the
    measured step waits for the device at the end of each phase, inside its range: a range's "dur" is the
    host's time, and without the wait it would end when the kernels are queued, not when they are done."""
    def phase(name):
        return _Phase(name, cuda) if named else _nothing()
    with phase("forward"):
        loss = model(idx, targets)
    with phase("backward"):
        loss.backward()
        del loss
    with phase("optimizer step"):
        optimizer.step()
    with phase("zero_grad"):
        optimizer.zero_grad(set_to_none=True)


class _Phase:
    """record_function(name), synchronizing the device before the range closes (CUDA only)."""

    def __init__(self, name, cuda):
        self.range, self.cuda = record_function(name), cuda

    def __enter__(self):
        self.range.__enter__()
        return self

    def __exit__(self, *exc):
        if self.cuda:
            torch.cuda.synchronize()
        return self.range.__exit__(*exc)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def kineto_form(prof, not_modelled):
    """The trace in Kineto's form from the profiler's own events: op ranges, and the memory events with the
    running total c10's CPU allocator holds (it keeps no cache, so nothing is reserved)."""
    events, total = [], 0
    for e in prof.profiler.kineto_results.events():
        name = e.name()
        if name == "[memory]":
            total += e.nbytes()
            cuda = e.device_type() == torch.autograd.DeviceType.CUDA
            events.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 0,
                           "tid": 0, "ts": e.start_us(),
                           "args": {"Bytes": e.nbytes(), "Total Allocated": total, "Total Reserved": 0,
                                    "Device Type": 1 if cuda else 0,
                                    "Device Id": e.device_index() if cuda else -1}})
        else:
            # RecordScope 7 is USER_SCOPE: a record_function range (torch.optim's own included)
            events.append({"ph": "X", "cat": "user_annotation" if e.scope() == 7 else "cpu_op", "name": name,
                           "pid": 0, "tid": 0, "ts": e.start_us(), "dur": e.duration_us()})
    if any(e["name"] == "[memory]" and e["args"]["Device Type"] == 1 for e in events):
        fail("this torch wrote no memory events of its own and its CUDA ones carry no totals: use a torch "
             "built with Kineto for CUDA")
    return {"schemaVersion": 1, "traceEvents": events, "napkin_not_modelled": not_modelled,
            "napkin_note": f"written by scripts/measure-run.py from torch {torch.__version__}'s profiler events"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     usage="%(prog)s [options] -- NAPKIN ACCOUNT FLAGS...")
    parser.add_argument("--cli", help="napkin-cli (default: build/cli/napkin-cli, then PATH)")
    parser.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    parser.add_argument("--steps", type=int, default=2, help="training steps, the last measured (default 2)")
    parser.add_argument("--trace", default="run.json", help="the Chrome trace to write (default run.json)")
    parser.add_argument("--snapshot", help="CUDA only: the memory snapshot to write")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("flags", nargs=argparse.REMAINDER)
    o = parser.parse_args()
    flags = o.flags[1:] if o.flags[:1] == ["--"] else o.flags
    if o.steps < 2:
        fail("--steps: at least 2 (the first makes the optimizer's state)")
    cuda = o.device == "cuda"
    if o.device not in ("cpu", "cuda") or (cuda and not torch.cuda.is_available()):
        fail(f"--device {o.device}: cpu, or cuda where torch sees a GPU")
    cli = napkin_cli(o.cli)
    # torch.optim's update as torch runs it by default here, unless the flags name one: foreach on a GPU with
    # torch >= 2.0, single-tensor elsewhere; napkin is told the same (--optimizer-implementation).
    torch2 = int(torch.__version__.split(".")[0]) >= 2
    if not any(f == "--optimizer-implementation" or f.startswith("--optimizer-implementation=") for f in flags):
        flags = flags + ["--optimizer-implementation", "foreach" if cuda and torch2 else "single-tensor"]
    doc = describe(cli, flags)
    implementation = doc["optimizer"].get("implementation", "single-tensor")
    if implementation == "foreach" and not torch2:
        fail(f"--optimizer-implementation foreach: napkin models torch >= 2.0's foreach update; torch "
             f"{torch.__version__}'s holds more (Adam: two lists, not one)")
    if doc["model"] != "transformer":
        fail(f"--model {doc['model']}: only transformers have a reference model")
    recipe = doc["precision"]["recipe"]
    if recipe not in DTYPES:
        fail(f"--precision {recipe}: the script runs fp32 or bf16 (pure); mixed recipes are not measured yet")
    make, s = reference(doc)
    batch, device, dtype = int(doc["batch"]), torch.device(o.device), DTYPES[recipe]

    torch.manual_seed(o.seed)
    if not cuda:
        torch.set_num_threads(1)  # one thread: every allocation in one ordered stream
        # Denormals flushed, as scripts/compare_step_time.py does: GPT-2's tied head drives some gradients
        # subnormal, and a generic BLAS then runs a step several times slower than the work it does, which
        # the step time (napkin counts work, not values) cannot know. Memory is the same either way.
        torch.set_flush_denormal(True)
    if cuda:
        try:
            torch.cuda.memory._record_memory_history(max_entries=100_000)  # torch's default ring
        except TypeError:  # torch before 2.1
            torch.cuda.memory._record_memory_history(True)
        torch.cuda.reset_peak_memory_stats()
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    with profile(activities=activities, profile_memory=True) as prof:
        with record_function("setup"):
            model = make(s).to(device=device, dtype=dtype)
            model.train()
            optimizer = make_optimizer(doc["optimizer"]["name"], implementation, model.parameters())
            idx = torch.randint(0, s["vocab"], (batch, s["seq"]), device=device)
            targets = torch.randint(0, s["vocab"], (batch, s["seq"]), device=device)
        for k in range(1, o.steps):  # a range of its own, so its optimizer's ranges are not the measured step's
            with record_function(f"warm-up step {k}"):
                step(model, optimizer, idx, targets, named=False)
        if cuda:
            torch.cuda.synchronize()  # the warm-up's kernels finish before the measured step's range opens
        with record_function(f"ProfilerStep#{o.steps}"):
            step(model, optimizer, idx, targets, named=True, cuda=cuda)
    counters = [v for st in optimizer.state.values() for key, v in st.items() if key == "step"]
    not_modelled = {"token ids and targets": storage_bytes((idx, targets)),
                    "the model's buffers": storage_bytes(model.buffers()),
                    "the optimizer's 0-d step counters": storage_bytes(counters)}
    not_modelled = {k: v for k, v in not_modelled.items() if v}

    prof.export_chrome_trace(o.trace)
    with open(o.trace) as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    if any(e.get("name") == "[memory]" for e in events) and isinstance(trace, dict):
        trace["napkin_not_modelled"] = not_modelled
    else:
        trace = kineto_form(prof, not_modelled)
    # The setup the run was made with, as napkin spells it: opening the trace can offer it back, and a
    # comparison against another setup knows it is one.
    trace["napkin_setup"] = doc.get("command") or " ".join(["napkin-cli", "account"] + flags)
    trace["napkin_scenario"] = doc["scenario"]  # the same setup as the app's scenario file: "Use the run's setup"
    profile_path = flag_value(flags, "--hardware-profile")
    if profile_path:  # the profile its time is predicted from: the app costs the run's step from it too
        with open(profile_path) as f:
            trace["napkin_hardware_profile"] = f.read()
    with open(o.trace, "w") as f:
        json.dump(trace, f)
    print(f"wrote {o.trace}: {doc['parameters']:,} parameters, batch {batch}, {o.steps} steps on {o.device}, "
          f"torch {torch.__version__}")
    if cuda:
        print(f"max_memory_allocated {torch.cuda.max_memory_allocated():,} B, "
              f"max_memory_reserved {torch.cuda.max_memory_reserved():,} B")
        if o.snapshot:
            if hasattr(torch.cuda.memory, "_dump_snapshot"):
                torch.cuda.memory._dump_snapshot(o.snapshot)
            else:
                with open(o.snapshot, "wb") as f:
                    pickle.dump(torch.cuda.memory._snapshot(), f)
            print(f"wrote {o.snapshot}")
    command = [cli, "compare", "--trace", o.trace, *flags]
    print("$ " + " ".join(shlex.quote(a) for a in command))
    compared = subprocess.run(command, capture_output=True, text=True)
    print(compared.stdout + compared.stderr, end="")
    return compared.returncode


if __name__ == "__main__":
    sys.exit(main())

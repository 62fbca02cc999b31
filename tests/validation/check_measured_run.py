#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A measured run read back beside the prediction, to the byte (issue: "your own run beside the prediction").

scripts/measure-run.py runs two AdamW steps of a small GPT-2 stack (odd sizes: d 48, 3 heads, 3 layers,
V 37, s 7, ffn 120, tied, batch 2, fp32, dropout off) on the CPU under torch.profiler(profile_memory=True)
and writes the Chrome trace; `napkin-cli compare --trace` reads it with the same setup flags. Checked:

1. The measured peak (the CPU allocator's bytes, all of them, from the model's creation on) less what the run
   names as outside any prediction (the token ids and targets, the model's buffers, AdamW's 0-d step
   counters: "attributed") is napkin's predicted peak, to the byte, and nothing is unexplained. This model's
   step peaks inside AdamW.step() (docs/memory-timeline.md, "The peaks"), where napkin's `optimizer step`
   holds torch.optim's temporaries.
2. The optimizer step's measured peak (its named range) less the same bytes is napkin's optimizer step.
3. The trace's ranges carry durations: compare's `time` finds the measured step (ProfilerStep#N) and a
   measured duration for each of its four phases, none negative, their sum at most the step's (structure and
   arithmetic only: never a timed bound).
4. Bad traces get one line and exit 2: torch's own export where it has no memory events (torch 1.13 built
   without Kineto writes op ranges only), a cut trace, a pickle that names code.

usage: check_measured_run.py --cli PATH
Exit status: 0 all agree, 1 a disagreement, 77 torch missing (skipped; NAPKIN_REQUIRE_TORCH=1: failure).
"""
import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import torch_harness  # noqa: E402,F401 (exits 77 without torch)
import torch  # noqa: E402

SCRIPT = os.path.join(HERE, "..", "..", "scripts", "measure-run.py")
FLAGS = ["--model", "transformer", "--d-model", "48", "--heads", "3", "--layers", "3", "--vocab", "37", "--seq", "7",
         "--ffn-dim", "120", "--batch", "2", "--bias", "on", "--embeddings", "tied", "--dropout", "off",
         "--precision", "fp32", "--optimizer", "adamw", "--recompute", "none", "--attention", "causal",
         "--activations-of", "pytorch-eager", "--optimizer-implementation", "single-tensor"]


def compare(cli, option, path, extra=()):
    return subprocess.run([cli, "compare", option, path, *FLAGS, *extra], capture_output=True, text=True)


def refused(cli, option, path, why, failures):
    out = compare(cli, option, path)
    lines = out.stderr.strip().split("\n")
    if out.returncode != 2 or len(lines) != 1 or not lines[0].startswith("napkin-cli: " + option + ": "):
        failures.append(f"{why}: exit {out.returncode}, stderr {out.stderr!r} (want exit 2 and one line)")
    else:
        print(f"refused ({why}): {lines[0]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    cli = parser.parse_args().cli
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "run.json")
        made = subprocess.run([sys.executable, SCRIPT, "--cli", cli, "--trace", trace, "--", *FLAGS],
                              capture_output=True, text=True)
        if made.returncode != 0:
            print(made.stdout + made.stderr)
            return 1
        print(made.stdout.strip())
        out = compare(cli, "--trace", trace, ["--json"])
        if out.returncode != 0:
            print(out.stderr)
            return 1
        doc = json.loads(out.stdout)
        predicted = int(doc["predicted"]["peak_bytes"])
        measured = int(doc["measured"]["peak_allocated_bytes"])
        named = sum(int(a["bytes"]) for a in doc["attributed"])
        print(f"predicted peak {predicted:,} B at {doc['predicted']['peak_event']}; measured {measured:,} B "
              f"({doc['device']}, {doc['measured']['samples']:,} samples) = {measured - named:,} + {named:,} named "
              f"({', '.join(a['name'] for a in doc['attributed'])}); unexplained {int(doc['unexplained_bytes']):+,} B")
        if measured - named != predicted or int(doc["unexplained_bytes"]) != 0:
            failures.append(f"peak: measured {measured:,} − named {named:,} ≠ predicted {predicted:,}")
        for p in doc["phases"]:
            m = p["measured_peak_bytes"]
            print(f"  {p['phase']:15} predicted {int(p['predicted_peak_bytes']):>10,} ({p['predicted_peak_event']}), "
                  f"measured {'—' if m is None else f'{int(m) - named:,} + {named:,}'} ({', '.join(p['measured_ranges'])})")
            if m is None:
                failures.append(f"{p['phase']}: the trace names no range for it")
            elif p["phase"] == "optimizer step" and int(m) - named != int(p["predicted_peak_bytes"]):
                failures.append(f"optimizer step: measured {int(m) - named:,} + named, predicted "
                                f"{int(p['predicted_peak_bytes']):,}")
        t = doc["time"]
        seconds = [p["measured_seconds"] for p in t["phases"]]
        step = t["step"]["measured_seconds"]
        print(f"  time: {t['measured_step_range']} {step} s; phases {seconds} s")
        if not t["measured_step_range"] or step is None or None in seconds:
            failures.append(f"time: the trace's ranges carry no durations ({t['why_not_measured']})")
        elif min(seconds) < 0 or sum(seconds) > step * (1 + 1e-9):
            failures.append(f"time: phases {seconds} s do not lie inside the step's {step} s")
        text = compare(cli, "--trace", trace)
        if text.returncode != 0 or "unexplained" not in text.stdout or "time by phase" not in text.stdout:
            failures.append("the text output: " + text.stderr)

        # Torch's own export: on a torch without Kineto it has no memory events, and compare says so.
        own = os.path.join(tmp, "own.json")
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], profile_memory=True) as prof:
            torch.ones(7, 5).sum()
        prof.export_chrome_trace(own)
        with open(own) as f:
            exported = json.load(f)
        events = exported["traceEvents"] if isinstance(exported, dict) else exported
        if not any(e.get("name") == "[memory]" for e in events):
            print(f"torch {torch.__version__}'s export_chrome_trace: {len(events)} events, no [memory] event")
            refused(cli, "--trace", own, "torch's export without memory events", failures)
        cut = os.path.join(tmp, "cut.json")
        with open(trace) as f, open(cut, "w") as g:
            g.write(f.read()[:5000])
        refused(cli, "--trace", cut, "a cut trace", failures)
        evil = os.path.join(tmp, "evil.pickle")
        with open(evil, "wb") as f:
            pickle.dump(os.system, f, protocol=4)
        refused(cli, "--snapshot", evil, "a pickle that names code", failures)
        refused(cli, "--trace", os.path.join(tmp, "missing.json"), "a missing file", failures)
        device = compare(cli, "--trace", trace, ["--device", "cuda:0"])
        if device.returncode != 2 or "no memory events on cuda:0" not in device.stderr:
            failures.append(f"another device: exit {device.returncode}, {device.stderr!r}")
        else:
            print("refused (another device): " + device.stderr.strip())
    for f in failures:
        print("DISAGREES: " + f)
    print(f"torch {torch.__version__}; {len(failures)} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

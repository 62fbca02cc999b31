#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The short plain-text summary of a scripts/gpu-bench.sh run, read from its stage folder: tst_cuda_gpu's
verdict, each dtype's best TFLOP/s with the torch ratio at that size, the trainer's MFU and GPU/host time
split, the memory comparison, copies, the allocation check, device bandwidth. Anything missing reads
"not measured" with the reason the step left. The last line is "RESULT: PASS" or "RESULT: FAIL (...)".

usage: gpu_bench_summary.py STAGE                  print the summary
       gpu_bench_summary.py --check-dry-run STAGE  exit 1 unless a --dry-run stage holds what it must
"""
import json
import os
import sys

DTYPES = ["bf16", "fp8-e4m3", "fp32", "tf32", "fp16"]


def read_steps(stage):
    steps = {}
    try:
        with open(os.path.join(stage, "steps.tsv"), encoding="utf-8") as f:
            next(f, None)
            for line in f:
                parts = line.rstrip("\n").split("\t")
                parts += [""] * (4 - len(parts))
                steps[parts[0]] = {"exit": parts[1], "seconds": parts[2], "note": parts[3]}
    except OSError:
        pass
    return steps


def first_line(stage, name):
    try:
        with open(os.path.join(stage, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.strip():
                    return line.strip()[:300]
    except OSError:
        pass
    return ""


def load_json(stage, name):
    try:
        with open(os.path.join(stage, name), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def why_missing(stage, steps, step):
    s = steps.get(step)
    if s is None:
        return "not run"
    if s["exit"] == "skipped":
        return s["note"]
    reason = first_line(stage, step + ".err") or s["note"] or f"exit {s['exit']}"
    return f"exit {s['exit']}: {reason}"


def tera(x):
    return f"{x / 1e12:.1f}" if x else "?"


def gpu_suite(stage, steps, failures, gpu_mode):
    s = steps.get("tst_cuda_gpu")
    if s is None:
        return "tst_cuda_gpu: not measured (not run)"
    if s["exit"] == "missing":
        return f"tst_cuda_gpu: not measured ({s['note']})"
    lines = []
    try:
        with open(os.path.join(stage, "tst_cuda_gpu.txt"), encoding="utf-8", errors="replace") as f:
            lines = [x.rstrip() for x in f]
    except OSError:
        pass
    tally = next((x for x in reversed(lines) if " cases: " in x), "no tally")
    if s["exit"] == "0":
        return f"tst_cuda_gpu: PASS ({tally})"
    if s["exit"] == "77":
        if gpu_mode:  # the GPU run without a GPU measured nothing: not a pass
            failures.append("no CUDA device")
        return f"tst_cuda_gpu: SKIPPED, no device ({tally})"
    failures.append("tst_cuda_gpu")
    failed = [x for x in lines if x.startswith("FAIL ")][:6]
    note = f", {s['note']}" if s["note"] else ""
    return "\n".join([f"tst_cuda_gpu: FAIL (exit {s['exit']}{note}; {tally})"] + ["  " + x for x in failed])


def torch_ratios(stage):
    doc = load_json(stage, "comparison.json") or {}
    ratios = {}
    for r in doc.get("results", []):
        ratios[(r.get("dtype"), r.get("m"), r.get("n"), r.get("k"))] = r
    return doc, ratios


def matmul(stage, steps, failures, ratios, gpu_mode):
    lines = ["matmul (best over the sweep; torch at the same shape, same run):"]
    measured = 0
    for dtype in DTYPES:
        doc = load_json(stage, f"matmul-{dtype}.json")
        if doc is None:
            lines.append(f"  {dtype:9} not measured ({why_missing(stage, steps, 'matmul-' + dtype)})")
            continue
        results = doc.get("results", [])
        good = [r for r in results if r.get("ok")]
        bad = [r for r in results if not r.get("ok")]
        measured += len(good)
        if good:
            best = max(good, key=lambda r: r.get("flops_per_second") or 0)
            shape = f"{best['m']}x{best['n']}x{best['k']}"
            mfu = best.get("mfu")
            t = ratios.get((dtype, best["m"], best["n"], best["k"]))
            if t and t.get("ratio"):
                vs = f"torch {tera(t.get('torch_flops_per_second'))} TFLOP/s, napkin/torch {t['ratio']:.3f}"
            elif t:
                vs = f"torch: {t.get('error', 'no figure')}"
            else:
                vs = "torch: not measured"
            lines.append(f"  {dtype:9} {tera(best.get('flops_per_second')):>7} TFLOP/s at {shape}"
                         f" (MFU {mfu:.3f})" if mfu is not None else
                         f"  {dtype:9} {tera(best.get('flops_per_second')):>7} TFLOP/s at {shape} (no MFU)")
            lines[-1] += f"; {vs}; max_rel_error {max(r.get('max_rel_error', 0) for r in good):.2e}"
        elif not bad:
            lines.append(f"  {dtype:9} not measured (no results)")
        for r in bad:
            error = (r.get("error") or "?")[:200]
            unverified = r.get("max_rel_error") is not None  # ran and was timed: verification refused it
            if unverified:
                failures.append(f"matmul {dtype}")
                lines.append(f"  {dtype:9} FAIL {r['m']}x{r['n']}x{r['k']}: {error}")
            else:
                lines.append(f"  {dtype:9} not measured {r['m']}x{r['n']}x{r['k']}: {error}")
    if gpu_mode and measured == 0:
        failures.append("no matmul measured")
    return lines


def trainer(stage, steps, name, label):
    doc = load_json(stage, f"{name}.json")
    if doc is None:
        return [f"trainer {label}: not measured ({why_missing(stage, steps, name)})"], None
    model = doc.get("model", {})
    shape = f"D={model.get('dim')} L={model.get('layers')} B={model.get('batch')} {model.get('optimizer')}"
    mfu = doc.get("mfu")
    line = f"trainer {label} ({shape}): MFU {mfu:.3f}" if mfu is not None else f"trainer {label} ({shape}): no MFU"
    line += f" [{doc.get('mfu_basis', 'step wall time')}]"
    parts = []
    for key, what in (("gpu_step_seconds_median", "GPU step"), ("batch_draw_seconds_median", "batch drawn on the GPU"),
                      ("step_seconds_median", "wall step")):
        if doc.get(key) is not None:
            parts.append(f"{what} {doc[key] * 1e3:.2f} ms")
    if doc.get("wall_mfu") is not None:
        parts.append(f"wall MFU {doc['wall_mfu']:.3f}")
    return [line, "  " + ", ".join(parts)] if parts else [line], doc


def recipes(stage, steps, gpu_mode):
    """One line per recipe of `bench train --precision LIST`: MFU against the recipe's own peak, wall MFU,
    step times, memory predicted against the ledger (and cudaMemGetInfo on a GPU), the loss from first to
    last step; then, on a GPU, the targets of the device-drawn batch and of bf16."""
    doc = load_json(stage, "train-recipes.json")
    if doc is None:
        return [f"recipes: not measured ({why_missing(stage, steps, 'train-recipes')})"]

    def num(x, spec):
        return format(x, spec) if isinstance(x, (int, float)) and not isinstance(x, bool) else "n/a"

    lines = []
    for row, run in zip(doc.get("comparison", []), doc.get("runs", [])):
        model = run.get("model", {})
        shape = f"D={model.get('dim')} L={model.get('layers')} B={model.get('batch')} {model.get('optimizer')}"
        gpu_ms = row.get("gpu_step_seconds_median")
        times = (f"GPU step {num(gpu_ms * 1e3, '.2f')} ms, " if gpu_ms is not None else "") + \
            f"wall step {num((row.get('step_seconds_median') or 0) * 1e3, '.2f')} ms"
        drop = row.get("allocator_reported_bytes")
        loss = f"loss {num(row.get('loss_first'), '.4g')} -> {num(row.get('loss_last'), '.4g')}"
        lines.append(f"recipe {row.get('recipe')} ({shape}): MFU {num(row.get('mfu'), '.3g')} of the"
                     f" {row.get('mfu_dtype')} peak, wall MFU {num(row.get('wall_mfu'), '.3g')}; {times}")
        lines.append(f"  memory predicted {num(row.get('memory_predicted_bytes'), '.0f')} B, ledger"
                     f" {num(row.get('memory_measured_bytes'), '.0f')} B, agree {row.get('memory_agree')};"
                     f" cudaMemGetInfo drop " + (f"{drop:.0f} B" if drop is not None else "not measured (no GPU)")
                     + f"; {loss}")
        mfu, wall = row.get("mfu"), row.get("wall_mfu")
        if gpu_mode and mfu and wall is not None:
            verdict = "met" if wall >= 0.9 * mfu else "not met"
            lines.append(f"  target wall MFU within 10 % of GPU MFU: {verdict} ({wall / mfu:.2f})")
            if row.get("recipe") == "mixed-bf16":
                lines.append(f"  target bf16 MFU >= 0.6: {'met' if mfu >= 0.6 else 'not met'}")
    return lines or ["recipes: no runs in train-recipes.json"]


def memory(doc):
    if doc is None:
        return ["memory: not measured (no training run)"]
    m = doc.get("memory", {})
    pred, meas = m.get("predicted_bytes"), m.get("measured_bytes")
    lines = [f"memory: predicted {pred:.0f} B, ledger {meas:.0f} B, agree {m.get('agree')}"
             if pred is not None and meas is not None else "memory: not measured"]
    nc = m.get("not_counted", {})
    dev = m.get("allocator_reported_bytes")
    if dev is None:
        lines.append("  cudaMemGetInfo drop: not measured (no GPU)")
    else:
        total = nc.get("total_allocated_bytes")
        diff = f", minus every allocation {dev - total:+.0f} B" if total is not None else ""
        lines.append(f"  cudaMemGetInfo drop {dev:.0f} B{diff} (inputs {nc.get('inputs_bytes', 0):.0f} B,"
                     f" workspace {nc.get('workspace_bytes', 0):.0f} B)")
    components = m.get("device_components") or []
    if components:
        lines.append("  per component: predicted / allocated / cudaMemGetInfo drop (difference: why)")
    for c in components:
        pred = c.get("predicted_bytes")
        lines.append(f"  {c.get('component')}: {'-' if pred is None else f'{pred:.0f}'} /"
                     f" {c.get('allocated_bytes', 0):.0f} / {c.get('mem_get_info_bytes', 0):.0f} B"
                     f" ({c.get('difference_bytes', 0):+.0f}: {(c.get('attribution') or '')[:70]})")
    return lines


def copies(stage, steps):
    doc = load_json(stage, "copy.json")
    if doc is None:
        return [f"copies: not measured ({why_missing(stage, steps, 'copy')})"]
    lines = ["copies (best GB/s, fraction of the link's promise):"]
    for direction in ("h2d", "d2h"):
        for host in ("pinned", "pageable"):
            rs = [r for r in doc.get("results", []) if r.get("direction") == direction
                  and r.get("host_memory") == host and r.get("ok")]
            if not rs:
                lines.append(f"  {direction} {host}: not measured")
                continue
            best = max(rs, key=lambda r: r.get("bytes_per_second") or 0)
            frac = best.get("fraction_of_promise")
            lines.append(f"  {direction} {host}: {best['bytes_per_second'] / 1e9:.1f} GB/s at {best['bytes']} B"
                         + (f" ({frac:.2f} of promise)" if frac is not None else " (no promise)"))
    return lines


def alloc_and_bandwidth(stage, steps):
    lines = []
    a = load_json(stage, "alloc.json")
    if a is None:
        lines.append(f"alloc (two 32x32 fp32): not measured ({why_missing(stage, steps, 'alloc')})")
    else:
        lines.append(f"alloc (two 32x32 fp32): expected {a.get('expected_bytes')} B, allocator"
                     f" {a.get('allocator_bytes')} B, cudaMemGetInfo drop {a.get('mem_get_info_delta_bytes')} B")
    b = load_json(stage, "memory.json")
    if b is None:
        lines.append(f"device bandwidth: not measured ({why_missing(stage, steps, 'memory')})")
    else:
        frac = b.get("fraction_of_promise")
        lines.append(f"device bandwidth ({b.get('device')}): {b.get('bytes_per_second', 0) / 1e9:.1f} GB/s"
                     + (f" ({frac:.2f} of promise)" if frac is not None else " (no promise)"))
    return lines


def measured_run(stage, steps, gpu_mode):
    """measure-run.py's PyTorch training step against napkin-cli compare (GPU mode only): the peaks and the rest."""
    if not gpu_mode:
        return []
    keep = ("$ ", "max_memory", "predicted peak", "measured peak", "difference", "  unexplained", "reserved peak")
    out = ["cuda context: " + (first_line(stage, "cuda-context.txt") or f"not measured ({why_missing(stage, steps, 'cuda-context')})")]
    out.append("measured runs (a training step in torch, napkin-cli compare):")
    for name in ("gpt2-fp32", "gpt2-bf16", "llama-bf16"):
        step = f"measure-run-{name}"
        try:
            with open(os.path.join(stage, step + ".txt"), encoding="utf-8") as f:
                text = [x.rstrip() for x in f]
        except OSError:
            text = []
        picked = [x for x in text if x.startswith(keep)]
        if not any(x.startswith("predicted peak") for x in picked):
            out.append(f"  {name}: not measured ({why_missing(stage, steps, step)})")
            continue
        out.append(f"  {name}:")
        out += ["    " + (x.split(" compare ", 1)[-1] if x.startswith("$ ") else x.strip()) for x in picked]
    return out


def summary(stage):
    steps = read_steps(stage)
    failures = []
    meta = []
    try:
        with open(os.path.join(stage, "meta.txt"), encoding="utf-8") as f:
            meta = [x.rstrip() for x in f]
    except OSError:
        pass
    gpu_mode = "mode: gpu" in meta
    finished = first_line(stage, "finished.txt")
    out = ["== napkin gpu-bench summary =="] + meta + ([f"finished: {finished}"] if finished else [])
    for name in ("nvidia-smi-start.csv", "nvidia-smi-end.csv"):
        try:
            with open(os.path.join(stage, name), encoding="utf-8") as f:
                rows = [x.strip() for x in f if x.strip()]
            out.append(f"{name[:-4]}: " + " | ".join(rows[1:] or rows))
        except OSError:
            pass
    fatal = first_line(stage, "fatal.txt")
    if fatal:
        out.append("FATAL: " + fatal)
        failures.append("setup")
    for step in ("configure", "build"):
        s = steps.get(step)
        if s and s["exit"] != "0":
            out.append(f"{step}: FAIL ({why_missing(stage, steps, step)}; see {step}.log in the archive)")
            failures.append(step)
    out.append(gpu_suite(stage, steps, failures, gpu_mode))
    doc, ratios = torch_ratios(stage)
    out += matmul(stage, steps, failures, ratios, gpu_mode)
    if doc:
        out.append(f"torch: {doc.get('torch', '?')}, CUDA {doc.get('cuda', '?')}; {doc.get('note', '')}".rstrip("; "))
    else:
        out.append(f"torch: not measured ({first_line(stage, 'comparison.txt') or why_missing(stage, steps, 'torch')})")
    lines, fp32 = trainer(stage, steps, "train-fp32", "fp32")
    out += lines
    out += recipes(stage, steps, gpu_mode)
    out += memory(fp32)
    lecture = load_json(stage, "train-lecture.json")
    if lecture is not None:
        m = lecture.get("memory", {})
        drop = m.get("allocator_reported_bytes")
        out.append(f"lecture Cruncher (D=4 L=2 B=2 adagrad): predicted {m.get('predicted_bytes')} B,"
                   f" ledger {m.get('measured_bytes')} B, cudaMemGetInfo drop "
                   + (f"{drop:.0f} B" if drop is not None else "not measured (no GPU)"))
    out += copies(stage, steps)
    out += alloc_and_bandwidth(stage, steps)
    out += measured_run(stage, steps, gpu_mode)
    timed_out = [k for k, s in steps.items() if s["exit"] in ("124", "137", "skipped")]
    if timed_out:
        out.append("timed out or skipped: " + ", ".join(timed_out))
    out.append("RESULT: FAIL (" + ", ".join(failures) + ")" if failures else "RESULT: PASS")
    return "\n".join(out)


def check_dry_run(stage):
    """What a --dry-run on the CPU must produce: every step ran, the CPU figures are there."""
    problems = []
    steps = read_steps(stage)
    for dtype in ("fp32", "bf16"):
        doc = load_json(stage, f"matmul-{dtype}.json")
        if not doc or not all(r.get("ok") for r in doc.get("results", [])) or not doc.get("results"):
            problems.append(f"matmul-{dtype}: no passing CPU results ({why_missing(stage, steps, 'matmul-' + dtype)})")
    for dtype in ("tf32", "fp8-e4m3"):  # the CPU refuses them: exit 2 with a reason
        if steps.get(f"matmul-{dtype}", {}).get("exit") != "2":
            problems.append(f"matmul-{dtype}: expected exit 2 on the CPU, got {steps.get('matmul-' + dtype)}")
    for name in ("train-fp32", "train-lecture"):
        if load_json(stage, f"{name}.json") is None:
            problems.append(f"{name}: no JSON ({why_missing(stage, steps, name)})")
    # fp32 and mixed-bf16 side by side, memory predicted = measured in both; a build without oneDNN has no
    # CPU mixed-bf16 trainer and must refuse the list (exit 2 naming the recipe) before any run.
    side_by_side = load_json(stage, "train-recipes.json")
    refused = first_line(stage, "train-recipes.err")
    if side_by_side is None:
        if not (steps.get("train-recipes", {}).get("exit") == "2" and "--precision mixed-bf16" in refused):
            problems.append(f"train-recipes: no JSON ({why_missing(stage, steps, 'train-recipes')})")
    elif side_by_side.get("recipes") != ["fp32", "mixed-bf16"] or not all(
            row.get("memory_agree") is True for row in side_by_side.get("comparison", [])):
        problems.append("train-recipes: expected fp32 and mixed-bf16 with memory predicted = measured")
    skipped = [k for k, s in steps.items() if s["exit"] in ("skipped", "124", "137")]
    if skipped:
        problems.append("steps skipped or timed out: " + ", ".join(skipped))
    text = summary(stage)
    needles = ["tst_cuda_gpu:", "matmul (", "trainer fp32", "memory:", "copies", "alloc", "RESULT:"]
    if side_by_side is not None:
        needles += ["recipe fp32 (", "recipe mixed-bf16 ("]
    for needle in needles:
        if needle not in text:
            problems.append(f"summary lacks '{needle}'")
    for p in problems:
        print("dry run: " + p, file=sys.stderr)
    return 1 if problems else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--check-dry-run":
        return check_dry_run(argv[2])
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    print(summary(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

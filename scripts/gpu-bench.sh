#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The CUDA benchmarks in one call that cannot lose its results (docs/benchmarks.md, "CUDA", gives the exact
# device `run` call). Every step writes into a temporary stage folder; on exit, whatever happened, ONE
# archive (gpu-bench.tar.gz) and a short plain-text summary (summary.txt, also printed) land in OUTDIR:
# two files, as the device tool returns at most 8 (16 MiB each, two folders deep).
#
#   scripts/gpu-bench.sh [OUTDIR]                           on the GPU machine (OUTDIR default: $OUT, else
#                                                           gpu-bench-out)
#   scripts/gpu-bench.sh --dry-run [--build-dir DIR] [OUTDIR]
#                                                           every step against the CPU backend with an
#                                                           existing build (default build-test/, as
#                                                           scripts/test.sh makes it; or $NAPKIN_BUILD_DIR),
#                                                           then checks the archive and summary against the
#                                                           device tool's limits. Under a minute; CI runs it.
#
# GPU mode needs third_party/install (scripts/stage-header-deps.sh, here, then `carry` it) and nvcc; it
# stops in the first seconds, saying how to fix it, when either is missing. It configures with Ninja where
# present, Release, GUI, oneDNN and the Qt tests off, and builds only napkin-cli and tst_cuda_gpu. It runs
# tst_cuda_gpu once and none of the CLI contract tests (several expect "no CUDA device" and fail on a GPU).
# Environment: NAPKIN_CUDA_ARCH (default 90), SIZES (default 1024,2048,4096,8192), REPEATS (default 11),
# COPY_SIZES, PYTHON (default python3: the one with torch), CUDACXX (nvcc where PATH has none), JOBS
# (build jobs, default all CPUs), BUDGET_S (default 390; 100 for --dry-run): the
# script stops starting steps and packs up before then, so that the device call's timeout never kills it
# before the archive is written.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
repo="$PWD"

mode=gpu
build=""
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) mode=dry ;;
    --build-dir) build="${2:?--build-dir needs a folder}"; shift ;;
    --build-dir=*) build="${1#--build-dir=}" ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    -*) echo "gpu-bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) out="$1" ;;
  esac
  shift
done

started=$(date +%s)
budget="${BUDGET_S:-390}"
if [ "$mode" = dry ]; then
  build="${build:-${NAPKIN_BUILD_DIR:-build-test}}"
  budget="${BUDGET_S:-100}" # it takes about 20 s; the margin is for a sanitizer build on a busy CI machine
  keep_out=1
  [ -n "$out" ] || { out="$(mktemp -d "${TMPDIR:-/tmp}/gpu-bench-dry.XXXXXX")"; keep_out=0; }
else
  build="${build:-build-gpu}"
  out="${out:-${OUT:-gpu-bench-out}}"
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d "${TMPDIR:-/tmp}/gpu-bench.XXXXXX")"
steps="$stage/steps.tsv"
printf 'step\texit\tseconds\tnote\n' > "$steps"
summary_py="$repo/scripts/gpu_bench_summary.py"
python="${PYTHON:-python3}" # the one with torch (the GPU machine's python3; CI passes Debian's /usr/bin/python3)

# The summary: written after every step (so a killed run still leaves one in OUTDIR) and at exit.
write_summary() {
  if command -v "$python" > /dev/null; then
    "$python" "$summary_py" "$stage" > "$stage/summary.txt" 2> "$stage/summary.err" ||
      { echo "summary script failed:"; cat "$stage/summary.err"; cut -f1-4 "$steps"; } > "$stage/summary.txt"
  else
    { echo "python3 not found: no parsed summary; steps (exit codes):"; cut -f1-4 "$steps"; } \
      > "$stage/summary.txt"
  fi
  cp "$stage/summary.txt" "$out/summary.txt" 2> /dev/null || true
}

# Checks what the device tool would return from OUTDIR: at most 8 files, 16 MiB each, two folders deep.
check_out_limits() {
  local count big deep
  count=$(find "$out" -type f | wc -l)
  big=$(find "$out" -type f -size +16M | wc -l)
  deep=$(find "$out" -mindepth 4 | wc -l)
  [ "$count" -le 8 ] && [ "$big" -eq 0 ] && [ "$deep" -eq 0 ] ||
    { echo "OUTDIR breaks the device tool's limits: $count files (max 8), $big over 16 MiB, $deep too deep" >&2
      return 1; }
}

finish() {
  local rc=$?
  trap - EXIT
  date -u +%FT%TZ > "$stage/finished.txt"
  write_summary
  # Build logs can grow; the archive must stay under 16 MiB: keep their last 4000 lines.
  for log in "$stage"/*.log; do
    [ -f "$log" ] && [ "$(wc -c < "$log")" -gt 2000000 ] && { tail -n 4000 "$log" > "$log.tail"; mv "$log.tail" "$log"; }
  done
  tar -czf "$out/gpu-bench.tar.gz" -C "$stage" . 2> "$out/tar.err" && rm -f "$out/tar.err"
  cat "$stage/summary.txt"
  echo "archive: $out/gpu-bench.tar.gz ($(wc -c < "$out/gpu-bench.tar.gz" 2> /dev/null || echo 0) bytes); summary: $out/summary.txt"
  if [ "$mode" = gpu ] && [ "$rc" -eq 0 ] && grep -q '^RESULT: FAIL' "$stage/summary.txt"; then
    rc=1
  fi
  if [ "$mode" = dry ]; then
    check_out_limits || rc=1
    [ -s "$out/gpu-bench.tar.gz" ] && tar -tzf "$out/gpu-bench.tar.gz" > /dev/null || { echo "no archive" >&2; rc=1; }
    [ -s "$out/summary.txt" ] || { echo "no summary" >&2; rc=1; }
    "$python" "$summary_py" --check-dry-run "$stage" || rc=1
    echo "dry run: $(( $(date +%s) - started )) s, exit $rc"
    [ "$keep_out" = 1 ] || rm -rf "$out"
  fi
  rm -rf "$stage"
  exit "$rc"
}
trap finish EXIT

# run_step NAME MAX_SECONDS STDOUT_FILE COMMAND...: runs it under `timeout` within what is left of the budget,
# its stderr into NAME.err, and records NAME, its exit code and seconds in steps.tsv. Never fails the script.
run_step() {
  local name="$1" max="$2" to="$3"
  shift 3
  local left=$(( budget - ( $(date +%s) - started ) - 10 ))
  if [ "$left" -le 5 ]; then
    printf '%s\t%s\t0\t%s\n' "$name" "skipped" "budget of ${budget} s spent" >> "$steps"
    return 0
  fi
  [ "$max" -gt "$left" ] && max="$left"
  local t0 rc
  t0=$(date +%s)
  timeout --kill-after=5 "$max" "$@" > "$to" 2> "$stage/$name.err"
  rc=$?
  local note=""
  [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && note="timed out after $max s"
  printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$(( $(date +%s) - t0 ))" "$note" >> "$steps"
  [ -s "$stage/$name.err" ] || rm -f "$stage/$name.err"
  write_summary
  return 0
}

# The GPU's name, driver, SM clock (now and max), power, throttle reasons, memory and temperature; newer
# drivers call the throttle reasons "clocks_event_reasons".
smi_query() {
  local fields=name,driver_version,clocks.sm,clocks.max.sm,power.draw,clocks_throttle_reasons.active,memory.total,temperature.gpu
  nvidia-smi --query-gpu="$fields" --format=csv > "$1" 2>&1 ||
    nvidia-smi --query-gpu="${fields/clocks_throttle_reasons/clocks_event_reasons}" --format=csv > "$1" 2>&1 ||
    echo "nvidia-smi failed or not found" >> "$1"
}

fail_fast() { # the message says how to fix it; the trap still writes the archive and summary
  echo "gpu-bench.sh: $1" | tee "$stage/fatal.txt" >&2
  exit 3
}

{
  echo "mode: $mode"
  echo "started: $(date -u +%FT%TZ)"
  echo "commit: $(git -C "$repo" rev-parse --short HEAD 2> /dev/null || echo unknown)$(git -C "$repo" diff --quiet 2> /dev/null || echo ' (+ uncommitted changes)')"
  echo "host: $(uname -n) $(uname -m), $(nproc) CPUs"
  echo "build: $build"
} > "$stage/meta.txt"

if [ "$mode" = gpu ]; then
  # Fail in the first seconds, before a minute of configure and build, with the fix in the message.
  # CUDACXX (CMake's own variable) names the compiler where PATH does not.
  if [ -n "${CUDACXX:-}" ]; then
    nvcc="$CUDACXX"
    [ -x "$nvcc" ] || fail_fast "CUDACXX=$nvcc is not an executable nvcc: unset it, or point it at CUDA's bin/nvcc"
  else
    nvcc="$(command -v nvcc || true)"
    [ -n "$nvcc" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc; }
    [ -n "$nvcc" ] || fail_fast "nvcc not found (not on PATH, not /usr/local/cuda/bin/nvcc): run on the GPU machine, or put CUDA's bin folder on PATH or in CUDACXX"
  fi
  for header in nlohmann/json.hpp CLI/CLI.hpp eigen3/Eigen/Core; do
    [ -e "third_party/install/include/$header" ] || [ -e "/usr/include/$header" ] ||
      fail_fast "third_party/install/include/$header missing (the GPU machine has no apt): run scripts/stage-header-deps.sh on the CPU machine and name third_party/install in the device run's carry list"
  done
  command -v cmake > /dev/null || fail_fast "cmake not found: pip install cmake, or put it on PATH"
  "$nvcc" --version | tail -n 2 > "$stage/nvcc.txt"
  smi_query "$stage/nvidia-smi-start.csv"
  generator=()
  command -v ninja > /dev/null && generator=(-G Ninja)
  run_step configure 120 "$stage/configure.log" cmake -S . -B "$build" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DNAPKIN_BUILD_GUI=OFF -DNAPKIN_BUILD_TESTS=ON -DNAPKIN_ENABLE_CUDA=ON \
    -DNAPKIN_ENABLE_ONEDNN=OFF -DNAPKIN_CUDA_ARCHITECTURES="${NAPKIN_CUDA_ARCH:-90}" -DNAPKIN_NATIVE=OFF \
    -DCMAKE_CUDA_COMPILER="$nvcc"
  run_step build "$budget" "$stage/build.log" cmake --build "$build" -j"${JOBS:-$(nproc)}" --target napkin-cli tst_cuda_gpu
  device=cuda
  sizes="${SIZES:-1024,2048,4096,8192}"
  repeats="${REPEATS:-11}"
  train=(--dim 4096 --layers 4 --batch 4096 --steps 20 --optimizer adamw)
  recipes=fp32,tf32,mixed-bf16,mixed-fp16 # the dtype trade-off: one setup in each recipe, on the same data
  copy_args=(--sizes "${COPY_SIZES:-4K,16K,64K,256K,1M,4M,16M,64M,256M,1G}")
  memory_args=()
else
  [ -x "$build/cli/napkin-cli" ] ||
    fail_fast "$build/cli/napkin-cli not found: build it first (scripts/test.sh makes build-test/), or give --build-dir"
  device=cpu
  sizes=32,64
  repeats=3
  train=(--dim 32 --layers 2 --batch 32 --steps 3 --optimizer adamw)
  recipes=fp32,mixed-bf16 # what the CPU trainers run (tf32 and mixed-fp16 are GPU recipes)
  copy_args=(--sizes 4K)
  memory_args=(--bytes 1M)
fi
cli="$build/cli/napkin-cli"
gpu_suite="$build/tests/engine/compute/cuda/tst_cuda_gpu"

if [ -x "$gpu_suite" ]; then # once: every CUDA path against a reference (exit 77: every case skipped)
  run_step tst_cuda_gpu 120 "$stage/tst_cuda_gpu.txt" "$gpu_suite"
else
  printf 'tst_cuda_gpu\tmissing\t0\t%s\n' "not built in $build" >> "$steps"
fi
for dtype in bf16 fp8-e4m3 fp32 tf32 fp16; do # the headline dtypes first, in case the budget runs out
  run_step "matmul-$dtype" 90 "$stage/matmul-$dtype.json" \
    "$cli" bench matmul --device "$device" --dtype "$dtype" --sizes "$sizes" --repeats "$repeats" --json
done
run_step train-fp32 120 "$stage/train-fp32.json" "$cli" bench train --device "$device" "${train[@]}" --json
run_step train-recipes 180 "$stage/train-recipes.json" \
  "$cli" bench train --device "$device" "${train[@]}" --precision "$recipes" --json
if [ "$mode" = gpu ] && "$python" -c "import torch; assert torch.cuda.is_available()" 2> /dev/null; then
  run_step torch 150 "$stage/comparison.txt" "$python" scripts/compare_torch_mm.py --repeats "$repeats" \
    --json-out "$stage/comparison.json" "$stage"/matmul-*.json
elif [ "$mode" = dry ] && "$python" -c "import torch" 2> /dev/null; then
  run_step torch 30 "$stage/comparison.txt" "$python" scripts/compare_torch_mm.py --device cpu --repeats 2 \
    --json-out "$stage/comparison.json" "$stage"/matmul-*.json
else
  echo "PyTorch$([ "$mode" = gpu ] && echo ' with CUDA') not found by $python: no comparison" > "$stage/comparison.txt"
fi
run_step alloc 30 "$stage/alloc.json" "$cli" bench alloc --device "$device" --json
run_step train-lecture 30 "$stage/train-lecture.json" \
  "$cli" bench train --device "$device" --dim 4 --layers 2 --batch 2 --steps 5 --optimizer adagrad --json
run_step copy 90 "$stage/copy.json" "$cli" bench copy --device "$device" "${copy_args[@]}" --repeats "$repeats" --json
run_step memory 60 "$stage/memory.json" "$cli" bench memory --device "$device" "${memory_args[@]}" --repeats "$repeats" --json
if [ "$mode" = gpu ]; then # real training steps' memory on the GPU against the prediction (napkin-cli compare)
  measure() { # NAME FLAGS...: one measure-run.py step, its trace and allocator snapshot kept in the archive
    local name="$1"
    shift
    run_step "measure-run-$name" 90 "$stage/measure-run-$name.txt" "$python" scripts/measure-run.py --cli "$cli" \
      --device cuda --trace "$stage/run-$name.json" --snapshot "$stage/run-$name.pickle" -- "$@" \
      --activations-of pytorch-eager
  }
  # The CUDA context of a process that has only initialised CUDA and PyTorch, as nvidia-smi reports its used
  # memory (the `cuda_context` overhead line, docs/cli.md).
  run_step cuda-context 30 "$stage/cuda-context.txt" "$python" -c 'import subprocess, torch
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
q = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory", "--format=csv,noheader"], capture_output=True, text=True).stdout
print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name()}: nvidia-smi used_memory of this process after torch.zeros(1, device=cuda): {q.strip()}")'
  measure gpt2-fp32 --model-preset gpt2-small --layers 4 --seq 512 --batch 8
  measure gpt2-bf16 --model-preset gpt2-small --layers 4 --seq 512 --batch 8 --precision bf16
  measure llama-bf16 --model-preset llama3-8b --layers 2 --seq 512 --batch 2 --precision bf16 --attention-impl eager
  smi_query "$stage/nvidia-smi-end.csv"
fi
exit 0

#!/usr/bin/env bash
# The CUDA benchmarks, for a GPU machine with nvcc, CMake and PyTorch but no Qt and no network.
# First, on a machine with the Debian packages: scripts/stage-header-deps.sh (fills third_party/install,
# which must travel with the tree). Then, on the GPU machine:
#   scripts/gpu-bench.sh [OUTDIR]          default OUTDIR: $OUT, else gpu-bench-out
# Environment: NAPKIN_CUDA_ARCH (default 90, e.g. "80" for A100), SIZES (default 1024,2048,4096,8192),
# REPEATS (default 11), COPY_SIZES (default 4K,16K,...,1G). Writes napkin's JSON per dtype, the training
# run, the host<->device copies, the allocation check, the device-memory bandwidth (memory-cuda.json),
# the GPU test suite's results, and torch's comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-${OUT:-gpu-bench-out}}"
mkdir -p "$out"
arch="${NAPKIN_CUDA_ARCH:-90}"
sizes="${SIZES:-1024,2048,4096,8192}"
repeats="${REPEATS:-11}"

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$out/nvidia-smi.csv" || true
# Tests too: without Qt only the CLI contract tests and the Qt-free GPU suite (tst_cuda_gpu) build.
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DNAPKIN_BUILD_GUI=OFF -DNAPKIN_BUILD_TESTS=ON \
  -DNAPKIN_ENABLE_CUDA=ON -DNAPKIN_CUDA_ARCHITECTURES="$arch" -DNAPKIN_NATIVE=OFF > "$out/configure.log"
cmake --build build-gpu -j"$(nproc)" > "$out/build.log"
cli=build-gpu/cli/napkin-cli

# The GPU suite first (every CUDA path against a reference), then the CLI contract on this machine.
ctest --test-dir build-gpu -L gpu --output-on-failure > "$out/ctest-gpu.log" 2>&1 || true
build-gpu/tests/engine/compute/cuda/tst_cuda_gpu > "$out/tst_cuda_gpu.txt" 2>&1 || true
ctest --test-dir build-gpu -L cli -j"$(nproc)" > "$out/ctest-cli.log" 2>&1 || true

for dtype in fp32 tf32 fp16 bf16 fp8-e4m3; do
  # A failing dtype (e.g. fp8 before Ada) exits non-zero with its reason; the others still run.
  "$cli" bench matmul --device cuda --dtype "$dtype" --sizes "$sizes" --repeats "$repeats" --json \
    > "$out/matmul-$dtype.json" 2> "$out/matmul-$dtype.err" || cat "$out/matmul-$dtype.err"
done
"$cli" bench train --device cuda --dim 4096 --layers 4 --batch 4096 --steps 20 --optimizer adamw --json \
  > "$out/train-cuda.json" || true
"$cli" bench train --device cuda --dim 4 --layers 2 --batch 2 --steps 5 --optimizer adagrad --json \
  > "$out/train-cuda-lecture.json" || true

# Host<->device copies (pageable and pinned, both directions) against the PCIe promise, and the
# lecture's two-tensor allocation check (8192 bytes expected).
copy_sizes="${COPY_SIZES:-4K,16K,64K,256K,1M,4M,16M,64M,256M,1G}"
"$cli" bench copy --device cuda --sizes "$copy_sizes" --repeats "$repeats" --json \
  > "$out/copy-cuda.json" 2> "$out/copy-cuda.err" || cat "$out/copy-cuda.err"
"$cli" bench alloc --device cuda --json > "$out/alloc-cuda.json" 2> "$out/alloc-cuda.err" || cat "$out/alloc-cuda.err"

# Device-memory bandwidth: cudaMemcpy device-to-device (counted as 2 x bytes) against the catalog's
# memory bandwidth, and the datasheet roofline it is the slope of.
"$cli" bench memory --device cuda --repeats "$repeats" --json \
  > "$out/memory-cuda.json" 2> "$out/memory-cuda.err" || cat "$out/memory-cuda.err"

if python3 -c "import torch; assert torch.cuda.is_available()" 2> /dev/null; then
  python3 scripts/compare_torch_mm.py --repeats "$repeats" "$out"/matmul-*.json | tee "$out/comparison.txt"
else
  echo "PyTorch with CUDA not found: no comparison" | tee "$out/comparison.txt"
fi

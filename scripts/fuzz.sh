#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (address + undefined sanitizers) and runs each for a bounded
# number of executions. Usage: scripts/fuzz.sh [RUNS_PER_TARGET]   (default 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000000}"
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is needed (apt-get install clang)" >&2; exit 2; }
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNAPKIN_BUILD_GUI=OFF -DNAPKIN_ENABLE_CUDA=OFF -DNAPKIN_SANITIZE=ON -DNAPKIN_BUILD_FUZZERS=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_number_parse fuzz_cli_args fuzz_tensor_expression fuzz_float_codec
for target in fuzz_number_parse fuzz_cli_args fuzz_tensor_expression fuzz_float_codec; do
  work="$(mktemp -d)"
  cp tests/fuzz/corpus/"$target"/* "$work"/
  echo "== $target: $runs runs"
  build-fuzz/tests/fuzz/"$target" -runs="$runs" -max_len=512 -timeout=10 -print_final_stats=1 "$work" 2>&1 \
    | grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)|ERROR|SUMMARY' || true
  rm -rf "$work"
done

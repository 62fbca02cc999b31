#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets with clang (address + undefined sanitizers) and runs each from its seed
# corpus, bounded by executions or by time. Fails if any target finds a crash, hang or sanitizer report.
#   scripts/fuzz.sh [RUNS]           executions per target (default 1000000)
#   scripts/fuzz.sh --seconds N      N seconds per target (CI: 20 s × 10 targets)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --fuzz
bound=(-runs=1000000)
if [ "${1:-}" = "--seconds" ]; then
  bound=(-max_total_time="${2:?--seconds needs a number}")
elif [ -n "${1:-}" ]; then
  bound=(-runs="$1")
fi
targets=(fuzz_number_parse fuzz_cli_args fuzz_tensor_expression fuzz_float_codec fuzz_scenario fuzz_tour fuzz_checkpoint fuzz_hf_config fuzz_measured_run fuzz_hardware_profile)
source scripts/build-env.sh
napkin_configure build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNAPKIN_BUILD_GUI=OFF -DNAPKIN_ENABLE_CUDA=OFF -DNAPKIN_SANITIZE=ON -DNAPKIN_BUILD_FUZZERS=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]}"
status=0
for target in "${targets[@]}"; do
  work="$(mktemp -d)"
  cp tests/fuzz/corpus/"$target"/* "$work"/
  echo "== $target ${bound[*]}"
  # Crash inputs land in build-fuzz/ (never in the source tree); the exit status says whether any did.
  max_len=512
  [ "$target" = fuzz_scenario ] && max_len=8192 # a whole scenario file is about 4.2 KB (two models' keys)
  [ "$target" = fuzz_tour ] && max_len=8192     # a tour of a few steps with their edits
  [ "$target" = fuzz_checkpoint ] && max_len=8192 # the seeds' checkpoint is about 7 KB (6.5 KB generator text)
  [ "$target" = fuzz_hf_config ] && max_len=2048  # a shipped config.json is at most 800 bytes
  [ "$target" = fuzz_hardware_profile ] && max_len=2048 # a profile of a few GEMMs is about 700 bytes
  [ "$target" = fuzz_measured_run ] && max_len=4096 # the seeds: snapshots of 0.6 KB, a trace of 1 KB
  if ! build-fuzz/tests/fuzz/"$target" "${bound[@]}" -max_len="$max_len" -timeout=10 -print_final_stats=1 \
       -artifact_prefix=build-fuzz/ "$work" > "build-fuzz/$target.log" 2>&1; then
    status=1
    grep -E 'ERROR|SUMMARY|runtime error' "build-fuzz/$target.log" | head -5
  fi
  grep -E '^stat::number_of_executed_units|DONE' "build-fuzz/$target.log" || true
  rm -rf "$work"
done
exit $status

#!/usr/bin/env bash
# Installs what Napkin needs (only what is missing), builds everything, and runs the whole test suite
# headless. Exits non-zero if anything fails.
#   scripts/test.sh              Release-with-debug-info build in build-test/
#   scripts/test.sh --sanitize   the same suite built with -fsanitize=address,undefined in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
export QT_QPA_PLATFORM=offscreen
# install-deps.sh --test installed python3-torch: a missing torch is a failure here, not a skipped test.
export NAPKIN_REQUIRE_TORCH=1
jobs="$(nproc)"

if [ "${1:-}" = "--sanitize" ]; then
  # Leaks inside system libraries (fontconfig, Qt's plugin loader) are not ours; see the file.
  export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DNAPKIN_SANITIZE=ON -DNAPKIN_ENABLE_CUDA=OFF
  cmake --build build-asan -j"$jobs"
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE bench
  exit 0
fi

cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build-test -j"$jobs"
ctest --test-dir build-test --output-on-failure -j"$jobs"

#!/usr/bin/env bash
# Installs what Napkin needs (only what is missing), builds everything once with AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs the whole test suite headless in that build: every test, the
# PyTorch checks included, runs under the sanitizers, so one build serves the plain and the sanitized
# pass (CI used to build twice). Exits non-zero if anything fails or a sanitizer reports.
#   scripts/test.sh            RelWithDebInfo + -fsanitize=address,undefined in build-test/
#   scripts/test.sh --plain    the same suite without the sanitizers (a quicker local run, same folder)
# Benchmark figures come from the Release build in build/ (scripts/start.sh), never from build-test/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
export QT_QPA_PLATFORM=offscreen
# install-deps.sh --test installed python3-torch: a missing torch is a failure here, not a skipped test.
export NAPKIN_REQUIRE_TORCH=1
jobs="$(nproc)"

sanitize=ON
if [ "${1:-}" = "--plain" ]; then
  sanitize=OFF
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/test.sh [--plain]" >&2
  exit 2
fi
# Leaks inside system libraries (fontconfig, Qt's plugin loader) are not ours; see the file.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNAPKIN_SANITIZE="$sanitize"
cmake --build build-test -j"$jobs"
ctest --test-dir build-test --output-on-failure -j"$jobs"

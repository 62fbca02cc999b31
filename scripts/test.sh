#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what Napkin needs (only what is missing), builds everything once with AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs the whole test suite headless in that build: every test, the
# PyTorch checks included, runs under the sanitizers, so one build serves the plain and the sanitized
# pass (CI used to build twice). Exits non-zero if anything fails or a sanitizer reports.
#   scripts/test.sh            Debug + -fsanitize=address,undefined in build-test/
#   scripts/test.sh --plain    the same suite, RelWithDebInfo without the sanitizers (same folder)
# Napkin's libraries are shared in this build (NAPKIN_SHARED_LIBS): linked statically into each test
# program they filled 15 GB and CI's disk. Benchmark figures come from the Release build in build/
# (scripts/start.sh), never from build-test/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
export QT_QPA_PLATFORM=offscreen
# install-deps.sh --test installed python3-torch: a missing torch is a failure here, not a skipped test.
export NAPKIN_REQUIRE_TORCH=1
jobs="$(nproc)"

# Debug (-O0): with the sanitizers it compiles 2.4× faster than a plain -O2 build, where -O2 with them
# takes 3× as long (memory_timeline.cpp: 3.7 s, 9.0 s, 27.7 s), so one Debug build costs less than the
# plain build alone did.
sanitize=ON build_type=Debug
if [ "${1:-}" = "--plain" ]; then
  sanitize=OFF build_type=RelWithDebInfo
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/test.sh [--plain]" >&2
  exit 2
fi
# Leaks inside system libraries (fontconfig, Qt's plugin loader) are not ours; see the file.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

source scripts/build-env.sh
napkin_configure build-test -DCMAKE_BUILD_TYPE="$build_type" -DNAPKIN_SANITIZE="$sanitize" -DNAPKIN_SHARED_LIBS=ON
cmake --build build-test -j"$jobs"
ctest --test-dir build-test --output-on-failure -j"$jobs"

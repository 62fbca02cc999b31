#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# scripts/gpu-bench.sh in GPU mode with an nvcc that is not there: it must stop at once (exit 3) with the
# fix in its message, and still leave its archive and a summary that says FAIL (setup) in OUTDIR.
set -u
repo="$1"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
start=$(date +%s)
CUDACXX=/nonexistent/nvcc "$repo/scripts/gpu-bench.sh" "$out" > "$out.log" 2>&1
rc=$?
cat "$out.log"
rm -f "$out.log"
fail() { echo "gpu_bench_fails_fast: $1" >&2; exit 1; }
[ "$rc" -eq 3 ] || fail "exit $rc, expected 3"
[ $(( $(date +%s) - start )) -le 10 ] || fail "took more than 10 s"
[ -s "$out/gpu-bench.tar.gz" ] || fail "no archive"
grep -q '^RESULT: FAIL (setup' "$out/summary.txt" || fail "summary does not say FAIL (setup ...)"
grep -q 'point it at CUDA' "$out/summary.txt" || fail "summary does not give the fix"
echo "gpu_bench_fails_fast: ok"

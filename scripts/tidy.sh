#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs clang-tidy (the curated checks in .clang-tidy, warnings as errors) over every .cpp in engine/, cli/,
# widgets/ and app/, using the compile commands of the test build. Exits non-zero on any finding.
#   scripts/tidy.sh            all files (about 15 minutes on two cores when none is cached)
#   scripts/tidy.sh FILE...    just these files
# A file analysed clean is recorded under a key of everything its analysis reads (scripts/tidy_cache.py:
# its command, source, every header it includes, the checks, clang-tidy's version); a later run skips it
# while that key is unchanged, so that CI re-analyses what a change can affect. NAPKIN_TIDY_CACHE sets the
# cache's folder (default ~/.cache/napkin-tidy); NAPKIN_TIDY_CACHE=off analyses everything.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test --tidy
if [ ! -f build-test/compile_commands.json ]; then
  cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
# Generated sources (the GPU catalog, Qt's moc output) must exist before their includers are analysed.
cmake --build build-test -j"$(nproc)"

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files 'engine/*.cpp' 'cli/*.cpp' 'widgets/*.cpp' 'app/*.cpp')
fi
cache="${NAPKIN_TIDY_CACHE:-$HOME/.cache/napkin-tidy}"
pending=("${files[@]}")
if [ "$cache" != off ]; then
  # A cache that cannot be read never skips a file: everything is analysed.
  if listed="$(python3 scripts/tidy_cache.py pending build-test "$cache" "${files[@]}")"; then
    pending=()
    [ -n "$listed" ] && mapfile -t pending <<< "$listed"
  else
    echo "clang-tidy: the cache could not be read; analysing every file" >&2
  fi
fi
echo "clang-tidy: ${#pending[@]} of ${#files[@]} files to analyse (the rest unchanged since analysed clean)"
if [ ${#pending[@]} -gt 0 ]; then
  export cache
  # Each batch of four is recorded as clean only when clang-tidy found nothing in it.
  printf '%s\n' "${pending[@]}" | xargs -P "$(nproc)" -n 4 sh -c \
    'clang-tidy -p build-test --quiet "$@" && { [ "$cache" = off ] || python3 scripts/tidy_cache.py record build-test "$cache" "$@"; }' tidy
fi
echo "clang-tidy: clean"

#!/usr/bin/env bash
# Runs clang-tidy (the curated checks in .clang-tidy, warnings as errors) over every .cpp in engine/, cli/,
# widgets/ and app/, using the compile commands of the test build. Exits non-zero on any finding.
#   scripts/tidy.sh            all files (about 15 minutes on two cores)
#   scripts/tidy.sh FILE...    just these files
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
echo "clang-tidy: ${#files[@]} files"
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p build-test --quiet
echo "clang-tidy: clean"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a source file in the repository does not say its licence: every C++, CUDA, CMake, Python and
# shell file, the generated sources' templates and the desktop, MIME, AppStream and resource files carry
# "SPDX-License-Identifier: GPL-3.0-or-later" in their first three lines (after a #! line, or an XML
# declaration). Napkin is GPL-3.0-or-later (LICENSE): it links QCustomPlot, which is GPL-3.0. Data files
# (JSON fixtures, fuzz corpora, pickles, images) cannot hold a comment and are left out.
#   scripts/check-licence.sh   exits 1 and lists every file without the line, or prints "licence: clean"
set -euo pipefail
cd "$(dirname "$0")/.."
missing=0
while IFS= read -r file; do
  if ! head -n 3 "$file" | grep -q "SPDX-License-Identifier: GPL-3.0-or-later"; then
    echo "licence: $file has no SPDX-License-Identifier line"
    missing=1
  fi
done < <(git ls-files -- '*.cpp' '*.h' '*.cu' '*.cuh' '*.in' '*.py' '*.sh' '*.cmake' '*CMakeLists.txt' \
  '*.desktop' '*.xml' '*.qrc' .ci/run ':!tests/fuzz/corpus/**')
[ "$missing" = 0 ] && echo "licence: clean"
exit "$missing"

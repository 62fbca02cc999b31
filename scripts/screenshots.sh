#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates docs/screenshots/ from the layout test's own pictures (tests/app/shell/tst_layout.cpp), so
# the README shows exactly what that test judged: nothing clipped, nothing overlapping. Run it after a
# build; it runs the test (which must pass) and copies the chosen rows.
#   scripts/screenshots.sh [BUILD_DIR]     default build-test (scripts/test.sh's build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-test}"
shots="$build/layout-screenshots"
rm -rf "$shots"
export QT_QPA_PLATFORM=offscreen NAPKIN_LAYOUT_CHARTS=1
# A sanitized build (scripts/test.sh) reports leaks inside system libraries that are not ours.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
"$build/tests/app/shell/tst_layout" -silent
# docs/screenshots/NAME <- the layout test's row (its PNG), as README.md links them
declare -A rows=(
  [accounting-gpt3.png]=accounting-gpt3-175b-1600x900.png
  [inference.png]=inference-1600x900.png
  [roofline.png]=roofline-1600x900.png
  [number-formats.png]=number-formats-1600x900.png
  [tensor-layout.png]=tensor-layout-1600x900.png
  [dark.png]=accounting-dark-1024x768.png
  [presentation.png]=accounting-presentation-1280x720.png
  [memory-timeline-cruncher.png]=accounting-cruncher-presentation-1600x900.png.MemoryTimelineChart.png
)
for name in "${!rows[@]}"; do
  cp "$shots/${rows[$name]}" "docs/screenshots/$name"
done
echo "docs/screenshots: ${#rows[@]} pictures from $shots"

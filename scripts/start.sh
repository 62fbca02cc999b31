#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what Napkin needs (only what is missing), builds it, and starts the app.
# Usage: scripts/start.sh [napkin arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --gui
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNAPKIN_BUILD_TESTS=OFF
cmake --build build -j"$(nproc)"
exec build/app/napkin "$@"

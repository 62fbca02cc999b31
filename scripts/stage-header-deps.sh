#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copies the header-only dependencies (nlohmann_json, CLI11, Eigen) from this machine's Debian packages
# into third_party/install (git-ignored; the top CMakeLists.txt searches it first), so that napkin-cli
# builds on a machine without apt or network (the GPU machine). Their CMake configs locate everything
# relative to themselves (three directories up), so the same layout under the new prefix just works.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=third_party/install
for f in /usr/include/nlohmann/json.hpp /usr/include/CLI/CLI.hpp /usr/include/eigen3/Eigen/Core \
         /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 /usr/share/eigen3/cmake; do
  [ -e "$f" ] || { echo "missing $f: install nlohmann-json3-dev libcli11-dev libeigen3-dev" >&2; exit 1; }
done
rm -rf "$prefix"
mkdir -p "$prefix/include" "$prefix/share/cmake" "$prefix/share/eigen3"
cp -r /usr/include/nlohmann /usr/include/CLI /usr/include/eigen3 "$prefix/include/"
cp -r /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 "$prefix/share/cmake/"
cp -r /usr/share/eigen3/cmake "$prefix/share/eigen3/"
du -sh "$prefix"

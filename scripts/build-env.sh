# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the build scripts: how a build folder is configured the first time, and the compiler cache.
# Ninja, where installed, schedules the ten-library chain better than make and keeps the dependency log
# that scripts/tidy_cache.py reads; a folder already configured keeps its generator. ccache, where installed,
# serves an object compiled before with the same flags and source, also from another clone of the
# repository (base_dir is the clone; the clone's path is left out of the hash), as CI's fresh clone is.
# napkin_configure FOLDER CMAKE-ARGS...
napkin_configure() {
  local folder="$1"
  shift
  local extra=()
  if [ ! -f "$folder/CMakeCache.txt" ] && command -v ninja >/dev/null; then
    extra+=(-G Ninja)
  fi
  if command -v ccache >/dev/null; then
    extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B "$folder" "${extra[@]}" "$@"
}
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

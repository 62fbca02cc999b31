#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages Napkin needs to build, test and run, only those missing.
# Usage: scripts/install-deps.sh [--gui] [--test] [--fuzz] [--tidy]   (as root, or with sudo available)
set -euo pipefail

# libdnnl-dev: oneDNN, the CPU backend's GEMMs (what PyTorch uses for CPU bf16); its CMake package needs
# the OpenCL development files, which it only recommends (and we install without recommends).
packages=(cmake g++ make pkg-config libeigen3-dev nlohmann-json3-dev libcli11-dev libdnnl-dev ocl-icd-opencl-dev)
for arg in "$@"; do
  case "$arg" in
    --gui) packages+=(qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev) ;;
    # python3-torch: the tensor page's engine is checked against PyTorch itself (cli_tensor_matches_torch).
    # poppler-utils: exported PDFs are drawn by pdftoppm, as a reader would, and held against the screen
    # (tst_export_picture); a missing pdftoppm fails that test rather than skipping it. ninja-build and
    # ccache: the test build's generator and compiler cache (scripts/build-env.sh). appstream,
    # desktop-file-utils, libxml2-utils, shared-mime-info, man-db: the desktop files and the manual page
    # are checked by the tools a distribution runs on them (tests/resources).
    --test) packages+=(qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev xvfb xauth python3-torch poppler-utils ninja-build ccache
                       appstream desktop-file-utils libxml2-utils shared-mime-info man-db) ;;
    --fuzz) packages+=(clang libclang-rt-14-dev ninja-build ccache) ;;
    --tidy) packages+=(clang-tidy) ;;
    *) echo "install-deps.sh: unknown option '$arg' (expected --gui, --test, --fuzz or --tidy)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"

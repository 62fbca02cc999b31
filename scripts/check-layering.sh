#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when an include runs against the architecture (docs/architecture.md): a folder may include
# only its own headers and those of the folders it is allowed to depend on. The build already refuses
# the coarse cases (an engine file cannot find app/ or widgets/ headers, cmake/NapkinLayers.cmake);
# this also checks the direction between the engine's domains and between the app's folders, that the
# engine has no Qt and no CUDA outside engine/compute/cuda, that QCustomPlot stays in widgets/charts,
# and that no CMakeLists.txt compiles a file from another folder.
#   scripts/check-layering.sh          exits 1 and lists every violation, or prints "layering: clean"
set -euo pipefail
cd "$(dirname "$0")/.."

# folder => the include prefixes its files may use besides their own folder's. The longest folder
# that matches a file decides.
declare -A allowed=(
  [engine/text]=""
  [engine/numerics]="engine/text"
  [engine/io]=""
  [engine/hardware]="engine/io engine/numerics engine/text"
  [engine/models]="engine/numerics engine/text"
  [engine/accounting]="engine/models engine/hardware engine/numerics engine/text"
  [engine/inference]="engine/accounting engine/models engine/hardware engine/numerics engine/text"
  [engine/allocator]="engine/accounting engine/models engine/hardware engine/numerics engine/text"
  [engine/peers]="engine/accounting engine/models engine/hardware engine/numerics engine/text"
  [engine/tensor]="engine/numerics engine/text"
  # measured → steptime, one way: a run's time by phase is compared with the predicted step time's ledger
  # (measured_step_time.h), as its memory is with the accounting's timeline; steptime knows no measured run.
  [engine/measured]="engine/steptime engine/accounting engine/models engine/hardware engine/io engine/numerics engine/text"
  [engine/steptime]="engine/inference engine/accounting engine/models engine/hardware engine/io engine/numerics engine/text"
  [engine/planning]="engine/steptime engine/accounting engine/models engine/hardware engine/numerics engine/text"
  [engine/compute]="engine/accounting engine/models engine/hardware engine/io engine/numerics engine/text"
  [engine/compute/cpu]="engine/compute/ engine/accounting engine/models engine/hardware engine/numerics engine/text"
  [engine/compute/cuda]="engine/compute/ engine/accounting engine/models engine/hardware engine/numerics engine/text"
  [engine/benchmarks]="engine/compute engine/steptime engine/accounting engine/models engine/hardware engine/io engine/numerics engine/text"
  [engine/lessons]="engine/io engine/numerics engine/text"
  [engine/scenario]="engine/io engine/inference engine/accounting engine/models engine/compute/benchmark engine/compute/bench_dtype engine/compute/cpu_backend_kind engine/lessons engine/tensor engine/hardware engine/numerics engine/text"
  [engine/drills]="engine/scenario engine/benchmarks engine/inference engine/accounting engine/models engine/hardware engine/tensor engine/numerics engine/text"
  [engine/report]="engine/allocator engine/peers engine/steptime engine/planning engine/measured engine/benchmarks engine/compute engine/inference engine/accounting engine/models engine/hardware engine/lessons engine/tensor engine/numerics engine/text"
  [cli]="engine/"
  [widgets/text]="engine/numerics engine/text"
  [widgets/charts]="engine/numerics widgets/text"
  [widgets/controls]="engine/numerics engine/tensor widgets/text"
  [app/jobs]=""
  [app/export]="widgets/charts"
  [app/model]="engine/ widgets/"
  [app/hardware]="engine/ app/export app/jobs widgets/controls/text_tone.h widgets/text"
  [app/accounting]="engine/ widgets/ app/jobs app/export app/model app/hardware"
  [app/inference]="engine/ widgets/ app/jobs app/export app/model app/hardware"
  [app/formats]="engine/ widgets/ app/jobs app/export"
  [app/tensor]="engine/ widgets/ app/jobs app/export"
  [app/benchmarks]="engine/ widgets/ app/jobs app/export app/hardware"
  [app/roofline]="engine/ widgets/ app/jobs app/export app/hardware"
  [app/training]="engine/ widgets/ app/jobs app/export"
  [app/document]="engine/scenario app/export"
  [app/classroom]="engine/ widgets/charts widgets/controls widgets/text app/document app/accounting/presets.h app/hardware/chosen_hardware_profile.h"
  [app/shell]="engine/ widgets/ app/"
  [app/tools]="engine/ widgets/ app/"
  [app]="app/shell"
)

status=0
fail() {
  echo "layering: $1"
  status=1
}

folder_of() { # the longest folder in the table that holds $1
  local dir
  dir=$(dirname "$1")
  while [ "$dir" != "." ]; do
    [ -n "${allowed[$dir]+x}" ] && { echo "$dir"; return; }
    dir=$(dirname "$dir")
  done
}

while IFS= read -r file; do
  folder=$(folder_of "$file")
  [ -z "$folder" ] && continue
  while IFS= read -r include; do
    ok=0
    case "$include" in
      "$folder"/*) ok=1 ;;
    esac
    for prefix in ${allowed[$folder]}; do
      case "$include" in "$prefix"*) ok=1 ;; esac
    done
    [ $ok -eq 1 ] || fail "$file includes \"$include\": $folder may include only its own headers and ${allowed[$folder]:-nothing else}"
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file" | grep '/' || true)
done < <(git ls-files 'engine/*.h' 'engine/*.cpp' 'engine/*.cu' 'cli/*.h' 'cli/*.cpp' 'widgets/*.h' 'widgets/*.cpp' 'app/*.h' 'app/*.cpp')

# The engine is C++ without Qt; CUDA headers only inside the CUDA backend's .cpp/.cu files and headers.
while IFS= read -r hit; do fail "$hit: the engine has no Qt"; done < <(git grep -n -E '#[[:space:]]*include[[:space:]]*<Q' -- 'engine/*' 'cli/*' || true)
while IFS= read -r hit; do fail "$hit: CUDA headers belong in engine/compute/cuda"; done \
  < <(git grep -n -E '#[[:space:]]*include[[:space:]]*<(cuda|cublas|cuda_runtime)' -- 'engine/*' 'cli/*' 'widgets/*' 'app/*' ':!engine/compute/cuda/*' || true)
# oneDNN headers only in the oneDNN backend's .cpp files (its headers stay free of them, so that nothing
# outside engine/compute/cpu is compiled differently with or without oneDNN).
while IFS= read -r hit; do fail "$hit: oneDNN headers belong in engine/compute/cpu/onednn_*.cpp"; done \
  < <(git grep -n -E '#[[:space:]]*include[[:space:]]*[<"](dnnl|oneapi/dnnl)' -- '*.h' '*.cpp' '*.cu' ':!engine/compute/cpu/onednn_*.cpp' || true)
# QCustomPlot stays inside the charts.
while IFS= read -r hit; do fail "$hit: QCustomPlot stays inside widgets/charts"; done \
  < <(git grep -n -i -E 'qcustomplot\.h|QCustomPlot[^a-zA-Z]' -- '*.h' '*.cpp' ':!widgets/charts/*' ':!app/tools/bench_accounting_page.cpp' || true)
# Each CMakeLists compiles its own folder's files.
while IFS= read -r hit; do fail "$hit: a target compiles only its own folder's files"; done \
  < <(git grep -n -E '^[^#]*\.\./[^ )]*\.(cpp|cu|h)' -- '*CMakeLists.txt' || true)

[ $status -eq 0 ] && echo "layering: clean"
exit $status

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli bench matmul`: GEMM throughput on a backend, with the method and a verified result.
#include "cli/command.h"

namespace napkin::cli {

/// Adds `matmul` under `bench`; the returned Command runs it when it was chosen.
Command addBenchMatmulCommand(CLI::App& bench);

} // namespace napkin::cli

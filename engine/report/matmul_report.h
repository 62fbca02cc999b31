// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A matmul sweep as JSON and CSV. The JSON is the document of `napkin-cli bench matmul --json`, and the
// Benchmarks page exports the same document, so a sweep reads the same wherever it ran.
#include "engine/compute/benchmark_result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace napkin {

/// {benchmark, device, method, load_average_1min, cancelled, results[]} (docs/cli.md).
nlohmann::json matmulSweepJson(const MatmulSweep& sweep);
/// One row per case: dtype, m, n, k, ok, flops, seconds_median, seconds_p20, seconds_p80, seconds_min,
/// samples, calls_per_sample, warmup_runs, flops_per_second, promised_flops_per_second, mfu,
/// max_rel_error, verified_entries, error, bytes, arithmetic_intensity.
std::string matmulSweepCsv(const MatmulSweep& sweep);

} // namespace napkin

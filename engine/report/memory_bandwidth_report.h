// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A memory-bandwidth measurement as JSON: the document of `napkin-cli bench memory --json` (fields in
// docs/cli.md), which the GUI's exports use too.
#include "engine/compute/memory_bandwidth.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// {benchmark: "memory", device, device_name, catalog_id, method, byte_convention, bytes_per_array,
/// size_rule, last_level_cache_bytes, bytes_moved_per_run, threads, warmup_runs, timer, seconds_*,
/// samples, bytes_per_second, verified, promised_bytes_per_second, promise_source, fraction_of_promise,
/// load_average_1min}.
nlohmann::json memoryBandwidthJson(const MemoryBandwidthResult& result);

} // namespace napkin

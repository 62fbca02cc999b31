// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Host<->device copies and the two-tensor allocation check as JSON: the documents of `napkin-cli bench
// copy --json` and `bench alloc --json` (tested on the CPU with made-up sweeps).
#include "engine/compute/copy_benchmark.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// {benchmark, device{name, catalog_id, promised_bytes_per_second, promise_source}, method, results[]}.
nlohmann::json copySweepJson(const CopySweep& sweep, const CopyRunOptions& options);
/// {benchmark, device{name}, expected_bytes, allocator_bytes, mem_get_info_delta_bytes, matches, note}.
nlohmann::json allocCheckJson(const AllocCheck& check);

} // namespace napkin

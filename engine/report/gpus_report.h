// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli gpus --json`: the catalog's parts in brief, and this machine's CUDA devices matched to them.
#include "engine/benchmarks/local_gpus.h"
#include "engine/hardware/gpu_catalog.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// [{id, name, vendor, kind, memory_bytes, memory_bandwidth_bytes_per_second, dense_peak_bf16, source}]:
/// dense_peak_bf16 is null where no source gives it, 0 where the part has no bf16 path.
nlohmann::json catalogPartsJson(const GpuCatalog& catalog);

/// {devices: [{index, name, memory_bytes, sm_count, clock_hz, memory_clock_hz, memory_bus_bits,
/// compute_capability, catalog_id (null: no match), match}], no_device_reason (null when devices found)}.
nlohmann::json thisMachineGpusJson(const ThisMachineGpus& machine);

} // namespace napkin

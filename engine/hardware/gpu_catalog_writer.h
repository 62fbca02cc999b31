// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The catalog's JSON format written back: what GpuCatalog::addFromJson reads, so a part the user defined in
// the app is a file that `napkin-cli --gpu-catalog FILE` reads (one format, written and read here only).
#include "engine/hardware/gpu_catalog.h"

#include <string>
#include <vector>

namespace napkin {

/// {"version": 1, "gpus": [...]} for `gpus`, every field addFromJson reads: a dense peak that no source
/// gives is left out, one the part lacks is "none". Reading the text back yields the same parts.
std::string gpuCatalogJson(const std::vector<GpuSpec>& gpus);

/// Adds `gpu` to `catalog`, or replaces the part with its id: through the catalog's own reader, so a part
/// added here is checked exactly as a file's. Returns the reader's error (a figure out of range), or "".
std::string addGpu(GpuCatalog& catalog, const GpuSpec& gpu);

} // namespace napkin

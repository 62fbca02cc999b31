// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// --gpu-catalog FILE, as account, compare, infer and gpus read it: the built-in catalog plus the file's GPUs.
#include "engine/hardware/gpu_catalog.h"

#include <string>

namespace napkin::cli {

/// The built-in catalog, plus the GPUs of the file at `path` when it is not empty. Throws UsageError
/// naming --gpu-catalog and the file's fault.
GpuCatalog catalogWithGpuCatalogOption(const std::string& path);

} // namespace napkin::cli

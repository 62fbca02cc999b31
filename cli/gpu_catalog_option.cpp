// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/gpu_catalog_option.h"

#include "cli/number_option.h"

namespace napkin::cli {

GpuCatalog catalogWithGpuCatalogOption(const std::string& path) {
    GpuCatalog catalog = GpuCatalog::builtIn();
    if (path.empty())
        return catalog;
    const std::string error = catalog.addFromFile(path); // regular file, size capped
    if (!error.empty())
        throw UsageError("--gpu-catalog: " + error);
    return catalog;
}

} // namespace napkin::cli

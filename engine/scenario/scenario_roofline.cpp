// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario's "roofline" section: whose roof the Roofline tab draws. The device is a GPU catalog id
// or "cpu"; an id the catalog does not hold is refused, like any other unknown name, so a file never
// opens on a roof that is not there.
#include "engine/hardware/gpu_catalog.h"
#include "engine/numerics/storage_type.h"
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_gpus.h"
#include "engine/scenario/scenario_section.h"

#include <optional>
#include <string>
#include <string_view>

namespace napkin::scenario_detail {
namespace {

// "cpu", or a catalog id as the catalog spells it (the lookup is case-insensitive).
std::optional<std::string> rooflineDeviceFromName(std::string_view name) {
    if (name == "cpu")
        return std::string(name);
    if (const GpuSpec* gpu = scenarioGpuCatalog().find(name)) // the file's own GPUs too
        return gpu->id;
    return std::nullopt;
}

} // namespace

void readRoofline(const Section& s, RooflineScenario& r) {
    s.expectKeys({"device", "dtype"});
    s.name("device", r.device, rooflineDeviceFromName);
    s.name("dtype", r.dtype, computeTypeFromName);
}

json rooflineJson(const RooflineScenario& r) {
    return {{"device", r.device}, {"dtype", std::string(computeTypeName(r.dtype))}};
}

} // namespace napkin::scenario_detail

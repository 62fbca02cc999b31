// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to the scenario loader: the user's own GPUs a scenario carries ("gpus", in the GPU catalog's
// format), and the catalog its pages' GPU names are resolved against while the file is read.
#include "engine/hardware/gpu_catalog.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace napkin::scenario_detail {

/// The built-in catalog plus the file's "gpus" (appended to `parts`); throws Refusal naming the entry.
GpuCatalog readScenarioGpus(const nlohmann::json& root, std::vector<GpuSpec>& parts);

/// The parts as the file's "gpus" array (gpu_catalog_writer's entries).
nlohmann::json scenarioGpusJson(const std::vector<GpuSpec>& parts);

/// What the page sections resolve a GPU name against: the catalog of the file being read (set by a
/// ScenarioGpuScope on this thread), else the built-in one.
const GpuCatalog& scenarioGpuCatalog();

/// Makes `catalog` the one scenarioGpuCatalog() gives on this thread while the scope lives.
class ScenarioGpuScope {
public:
    explicit ScenarioGpuScope(const GpuCatalog& catalog);
    ~ScenarioGpuScope();
    ScenarioGpuScope(const ScenarioGpuScope&) = delete;
    ScenarioGpuScope& operator=(const ScenarioGpuScope&) = delete;

private:
    const GpuCatalog* m_previous;
};

} // namespace napkin::scenario_detail

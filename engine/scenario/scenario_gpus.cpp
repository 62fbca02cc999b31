// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/scenario/scenario_gpus.h"

#include "engine/hardware/gpu_catalog_writer.h"
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_section.h"

namespace napkin::scenario_detail {
namespace {
thread_local const GpuCatalog* t_catalog = nullptr; // the file being read on this thread, if any
} // namespace

GpuCatalog readScenarioGpus(const nlohmann::json& root, std::vector<GpuSpec>& parts) {
    GpuCatalog catalog = GpuCatalog::builtIn();
    const auto gpus = root.find("gpus");
    if (gpus == root.end())
        return catalog;
    if (!gpus->is_array())
        throw Refusal{"gpus: must be a list of GPUs in the GPU catalog's format"};
    GpuCatalog own;
    const nlohmann::json document = {{"gpus", *gpus}};
    if (const std::string error = own.addFromJson(document.dump()); !error.empty())
        throw Refusal{"gpus: " + error};
    for (const GpuSpec& gpu : own.gpus()) {
        if (GpuCatalog::builtIn().find(gpu.id))
            throw Refusal{"gpus: '" + gpu.id + "' is a built-in GPU; a scenario's own GPUs need other ids"};
        (void)addGpu(catalog, gpu); // read above by the same reader: cannot fail
        parts.push_back(gpu);
    }
    return catalog;
}

nlohmann::json scenarioGpusJson(const std::vector<GpuSpec>& parts) {
    return nlohmann::json::parse(gpuCatalogJson(parts)).at("gpus");
}

const GpuCatalog& scenarioGpuCatalog() {
    return t_catalog ? *t_catalog : GpuCatalog::builtIn();
}

ScenarioGpuScope::ScenarioGpuScope(const GpuCatalog& catalog)
    : m_previous(t_catalog) {
    t_catalog = &catalog;
}

ScenarioGpuScope::~ScenarioGpuScope() {
    t_catalog = m_previous;
}

} // namespace napkin::scenario_detail

namespace napkin {

bool ScenarioGpus::operator==(const ScenarioGpus& other) const {
    return parts.size() == other.parts.size() && gpuCatalogJson(parts) == gpuCatalogJson(other.parts);
}

} // namespace napkin

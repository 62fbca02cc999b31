// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/preset_report.h"

#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/setup_presets.h"
#include "engine/report/cli_command_line.h"

namespace napkin {

nlohmann::json presetsToJson() {
    nlohmann::json setups = nlohmann::json::array();
    for (const SetupPreset& p : setupPresets())
        setups.push_back({{"id", std::string(p.id)},
                          {"name", std::string(p.name)},
                          {"expectation", std::string(p.expectation)},
                          {"model", std::string(modelKindName(p.input.model.kind))},
                          {"command", accountCommandLine(p.input)}});
    nlohmann::json models = nlohmann::json::array();
    for (const ModelPreset& p : modelPresets())
        models.push_back(
            {{"id", std::string(p.id)}, {"name", std::string(p.name)}, {"source", std::string(p.source)}});
    for (const ZooModel& z : zooModels()) // the shipped config.json files: their source is the file
        models.push_back({{"id", std::string(z.id)},
                          {"name", std::string(z.name)},
                          {"source", "resources/models/" + std::string(z.id) + ".json"}});
    return {{"presets", setups}, {"model_presets", models}};
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/presets_command.h"

#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/setup_presets.h"
#include "engine/report/json_values.h"
#include "engine/report/preset_report.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>

namespace napkin::cli {

Command addPresetsCommand(CLI::App& parent) {
    auto json = std::make_shared<bool>(false);
    CLI::App* sub = parent.add_subcommand(
        "presets",
        "The presets: whole setups for --preset (as the app offers them) and models for --model-preset");
    sub->add_flag("--json", *json, "print one JSON document");
    return {sub, [json](std::ostream& out, std::ostream&) {
                if (*json) {
                    out << jsonText(presetsToJson());
                    return 0;
                }
                out << "setups (account --preset ID; the app's preset box):\n";
                for (const SetupPreset& p : setupPresets())
                    out << "  " << p.id << ": " << p.name << " — " << p.expectation << "\n";
                out << "models (account|infer --model-preset ID):\n";
                for (const ModelPreset& p : modelPresets())
                    out << "  " << p.id << ": " << p.name << "\n";
                for (const ZooModel& z : zooModels())
                    out << "  " << z.id << ": " << z.name << " (resources/models/" << z.id << ".json)\n";
                return 0;
            }};
}

} // namespace napkin::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/fine_tuning_json.h"

#include "engine/report/json_values.h"

namespace napkin {

using nlohmann::json;

void addFineTuningJson(json& doc, json& formulas, const AccountingInput& in, const AccountingResult& r) {
    const FineTuning& ft = in.fineTuning;
    json f;
    f["method"] = std::string(fineTuneMethodName(ft.method));
    f["offload"] = std::string(offloadName(ft.offload));
    f["trainable_parameters"] = jsonNumber(r.trainableParameters);
    if (r.fineTune) {
        const FineTuneMemory& m = *r.fineTune;
        f["frozen_parameters"] = jsonNumber(m.frozenParameters.value);
        f["all_parameters"] = jsonNumber(m.allParameters.value);
        formulas["fine_tuning.trainable_parameters"] = m.trainableParameters.formula;
        formulas["fine_tuning.all_parameters"] = m.allParameters.formula;
        if (hasAdapters(ft)) {
            f["lora"] = {{"rank", jsonNumber(ft.rank)},
                         {"alpha", jsonNumber(ft.alpha)},
                         {"scaling", jsonNumber(ft.alpha / ft.rank)},
                         {"targets", loraTargetsText(ft.targets)},
                         {"adapter_parameters", jsonNumber(m.adapters.parameters)}};
            f["frozen_weight_bytes"] = jsonNumber(m.frozenWeightBytes.value);
            f["frozen_weight_format"] = m.frozenWeightFormat;
            formulas["fine_tuning.frozen_weight_bytes"] = m.frozenWeightBytes.formula;
        }
        if (ft.offload != Offload::none) {
            f["host_memory_bytes"] = jsonNumber(m.hostBytes.value);
            f["host_link_bytes_per_step"] = {{"to_host", jsonNumber(m.linkBytesToHost.value)},
                                             {"to_gpu", jsonNumber(m.linkBytesToGpu.value)}};
            f["host_link_seconds_per_step"] =
                r.hostLinkSecondsPerStep ? jsonNumber(r.hostLinkSecondsPerStep->value) : json(nullptr);
            f["compute_seconds_per_step"] =
                r.computeSecondsPerStep ? jsonNumber(r.computeSecondsPerStep->value) : json(nullptr);
            formulas["fine_tuning.host_memory_bytes"] = m.hostBytes.formula;
            formulas["fine_tuning.host_link_bytes_per_step.to_host"] = m.linkBytesToHost.formula;
            formulas["fine_tuning.host_link_bytes_per_step.to_gpu"] = m.linkBytesToGpu.formula;
            if (r.hostLinkSecondsPerStep)
                formulas["fine_tuning.host_link_seconds_per_step"] = r.hostLinkSecondsPerStep->formula;
            if (r.computeSecondsPerStep)
                formulas["fine_tuning.compute_seconds_per_step"] = r.computeSecondsPerStep->formula;
        }
    }
    doc["fine_tuning"] = f;
}

} // namespace napkin

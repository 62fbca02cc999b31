// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/step_time_json.h"

#include "engine/report/json_values.h"

namespace napkin {

namespace {

nlohmann::json ledgerJson(const std::vector<StepTimeRow>& rows) {
    using nlohmann::json;
    json ledger = json::array();
    for (const StepTimeRow& row : rows) {
        // A GEMM's forward shape, for a calibration that times the step's own shapes
        // (scripts/calibrate_torch.py --step); null for any other row.
        const json gemm = row.m * row.n * row.k > 0 ? json{{"m", jsonNumber(row.m)},
                                                           {"n", jsonNumber(row.n)},
                                                           {"k", jsonNumber(row.k)},
                                                           {"batch", jsonNumber(row.batch)}}
                                                    : json(nullptr);
        ledger.push_back({{"name", row.name},
                          {"phase", std::string(stepTimePhaseName(row.phase))},
                          {"kind", std::string(stepTimeKindName(row.kind))},
                          {"seconds", jsonNumber(row.seconds)},
                          {"flops", jsonNumber(row.flops)},
                          {"bytes", jsonNumber(row.bytes)},
                          {"formula", row.formula},
                          {"gemm", gemm}});
    }
    return ledger;
}

} // namespace

nlohmann::json stepTimeLedgerJson(const StepTime& t) {
    return ledgerJson(t.ledger);
}

nlohmann::json inferenceTimeJson(const InferenceTime& t) {
    using nlohmann::json;
    auto number = [&](double v) { return t.predicted ? jsonNumber(v) : json(nullptr); };
    return {{"predicted", t.predicted},
            {"seconds", number(t.seconds)},
            {"tokens_per_second", number(t.tokensPerSecond)},
            {"tokens_formula", t.predicted ? json(t.tokensFormula) : json(nullptr)},
            {"basis", t.basis},
            {"why_not", t.predicted ? json(nullptr) : json(t.whyNot)},
            {"not_modelled", t.notModelled},
            {"ledger", ledgerJson(t.ledger)}};
}

nlohmann::json stepTimeJson(const StepTime& t) {
    using nlohmann::json;
    auto number = [&](double v) { return t.predicted ? jsonNumber(v) : json(nullptr); };
    return {{"predicted", t.predicted},
            {"seconds", number(t.seconds)},
            {"mfu", number(t.mfu)},
            {"hfu", number(t.hfu)},
            {"tokens_per_second", number(t.tokensPerSecond)},
            {"basis", t.basis},
            {"why_not", t.predicted ? json(nullptr) : json(t.whyNot)},
            {"mfu_formula", t.predicted ? json(t.mfuFormula) : json(nullptr)},
            {"not_modelled", t.notModelled},
            {"ledger", stepTimeLedgerJson(t)}};
}

} // namespace napkin

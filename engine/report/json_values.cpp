// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/json_values.h"

#include <cmath>
#include <cstdint>

namespace napkin {

nlohmann::json jsonNumber(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
        return static_cast<std::int64_t>(value);
    return value;
}

nlohmann::json jsonOptional(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json timingJson(const TimingSummary& t) {
    return {{"seconds_median", t.medianSeconds},
            {"seconds_p20", t.p20Seconds},
            {"seconds_p80", t.p80Seconds},
            {"seconds_min", t.minSeconds},
            {"samples", t.samples}};
}

std::string jsonText(const nlohmann::json& document) {
    return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

} // namespace napkin

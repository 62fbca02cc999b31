// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/reserved_memory_json.h"

#include "engine/allocator/step_reserved.h"
#include "engine/report/json_values.h"

namespace napkin {

FitVerdict addReservedMemoryJson(nlohmann::json& doc, const AccountingInput& input,
                                 const AccountingResult& result, const AllocatorConfig& config,
                                 const MemoryTimeline* steady) {
    const StepReserved s = stepReserved(input, result, config, 2, steady);
    nlohmann::json& events = doc["memory_timeline"];
    for (std::size_t i = 0; i < events.size(); ++i)
        events[i]["reserved_bytes"] = s.error.empty() && i < s.reservedBytes.size()
                                          ? jsonNumber(s.reservedBytes[i])
                                          : nlohmann::json(nullptr);
    const bool ok = s.error.empty();
    FitVerdict verdict = judgeFit(input, result, &s);
    const bool judged = verdict.fitsOnReserved.has_value();
    doc["reserved_memory"] = {
        {"peak_bytes", ok ? jsonNumber(s.peakReservedBytes) : nlohmann::json(nullptr)},
        {"allocated_peak_bytes", ok ? jsonNumber(s.peakAllocatedBytes) : nlohmann::json(nullptr)},
        {"fits", judged ? nlohmann::json(*verdict.fitsOnReserved) : nlohmann::json(nullptr)},
        {"required_bytes", judged ? jsonNumber(verdict.requiredBytes) : nlohmann::json(nullptr)},
        {"segments", s.segments.size()},
        {"steps", s.steps},
        {"alloc_conf", allocatorConfigText(config)},
        {"granularity", "timeline events"},
        {"error", ok ? nlohmann::json(nullptr) : nlohmann::json(s.error)}};
    return verdict;
}

} // namespace napkin

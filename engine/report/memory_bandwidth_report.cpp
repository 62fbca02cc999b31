// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/memory_bandwidth_report.h"

#include "engine/report/device_report.h"
#include "engine/report/json_values.h"

namespace napkin {

nlohmann::json memoryBandwidthJson(const MemoryBandwidthResult& r) {
    const auto cache =
        r.lastLevelCacheBytes ? nlohmann::json(*r.lastLevelCacheBytes) : nlohmann::json(nullptr);
    nlohmann::json j = {
        {"benchmark", "memory"},
        {"device", r.device},
        {"device_name", r.deviceName},
        {"catalog_id", r.catalogId.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.catalogId)},
        {"method", r.method},
        {"byte_convention", r.byteConvention},
        {"bytes_per_array", r.bytesPerArray},
        {"size_rule", r.sizeRule},
        {"last_level_cache_bytes", cache},
        {"bytes_moved_per_run", jsonNumber(r.bytesMovedPerRun)},
        {"threads", r.threads},
        {"warmup_runs", r.warmupRuns},
        {"timer", r.timer},
        {"bytes_per_second", r.bytesPerSecond},
        {"bytes_per_second_formula", "bytes_moved_per_run / seconds_median"},
        {"verified", r.verified},
        {"promised_bytes_per_second", jsonOptional(r.promisedBytesPerSecond)},
        {"promise_source", r.promiseSource},
        {"fraction_of_promise", r.promisedBytesPerSecond && *r.promisedBytesPerSecond > 0
                                    ? nlohmann::json(r.bytesPerSecond / *r.promisedBytesPerSecond)
                                    : nlohmann::json(nullptr)},
        {"load_average_1min", loadAverageJson()}};
    j.update(timingJson(r.timing));
    return j;
}

} // namespace napkin

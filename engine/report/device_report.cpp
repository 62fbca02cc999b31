// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/device_report.h"

#include "engine/report/json_values.h"

#include <fstream>

namespace napkin {
namespace {
nlohmann::json text(const std::string& s) { // null where the device has no such figure (a GPU)
    return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}
} // namespace

nlohmann::json deviceJson(const DeviceInfo& d) {
    nlohmann::json promised = nlohmann::json::object();
    for (const auto& [dtype, flops] : d.promisedFlopsPerSecond)
        promised[dtype] = flops;
    return {{"backend", d.backend},
            {"name", d.name},
            {"cores", d.cores},
            {"threads", d.threads},
            {"simd", d.simd},
            {"clock_hz", jsonOptional(d.clockHz)},
            {"promised_flops_per_second", promised},
            {"promised_basis", d.promisedBasis},
            {"spec_fp32_flops_per_second", jsonOptional(d.specFp32FlopsPerSecond)},
            {"spec_fp32_formula", d.specFp32Formula},
            {"measured_fma_fp32_flops_per_second", jsonOptional(d.measuredFp32FlopsPerSecond)},
            {"cpu_backend", text(d.cpuBackend)},
            {"cpu_backend_version", text(d.cpuBackendVersion)},
            {"isa", text(d.isa)}};
}

nlohmann::json loadAverageJson() {
    std::ifstream in("/proc/loadavg");
    double oneMinute = 0;
    if (in >> oneMinute)
        return oneMinute;
    return nullptr;
}

} // namespace napkin

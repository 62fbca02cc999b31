#include "cli/bench_device_json.h"

#include "engine/benchmarks/backend_registry.h"
#include "cli/number_option.h"
#include "engine/compute/cpu/cpu_backend.h"

#include <fstream>

namespace napkin::cli {

nlohmann::json deviceJson(const DeviceInfo& d) {
    nlohmann::json promised = nlohmann::json::object();
    for (const auto& [dtype, flops] : d.promisedFlopsPerSecond)
        promised[dtype] = flops;
    auto optional = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    return {{"backend", d.backend},
            {"name", d.name},
            {"cores", d.cores},
            {"threads", d.threads},
            {"simd", d.simd},
            {"clock_hz", optional(d.clockHz)},
            {"promised_flops_per_second", promised},
            {"promised_basis", d.promisedBasis},
            {"spec_fp32_flops_per_second", optional(d.specFp32FlopsPerSecond)},
            {"spec_fp32_formula", d.specFp32Formula},
            {"measured_fma_fp32_flops_per_second", optional(d.measuredFp32FlopsPerSecond)}};
}

std::unique_ptr<BenchmarkBackend> backendForDevice(const std::string& device, int threads) {
    if (threads > 0 && device == "cpu") {
        CpuBackendOptions options;
        options.threads = threads;
        return std::make_unique<CpuBackend>(options);
    }
    std::string why;
    auto backend = makeBackend(device, &why);
    if (!backend)
        throw UsageError("--device " + device + ": " + why);
    return backend;
}

nlohmann::json loadAverageJson() {
    std::ifstream in("/proc/loadavg");
    double oneMinute = 0;
    if (in >> oneMinute)
        return oneMinute;
    return nullptr;
}

} // namespace napkin::cli

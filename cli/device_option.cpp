// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/device_option.h"

#include "cli/number_option.h"
#include "engine/benchmarks/backend_registry.h"

namespace napkin::cli {

std::unique_ptr<BenchmarkBackend> backendForDevice(const std::string& device, int threads,
                                                   const std::string& cpuBackend) {
    BackendOptions options;
    options.cpuThreads = threads;
    if (!cpuBackend.empty()) {
        const auto kind = cpuBackendKindFromName(cpuBackend);
        if (!kind)
            throw UsageError("--backend: unknown '" + cpuBackend + "' (" + cpuBackendKindNames() + ")");
        if (device != "cpu")
            throw UsageError("--backend " + cpuBackend + " chooses the cpu's GEMM library; --device " +
                             device + " has its own");
        for (const BackendEntry& e : listCpuBackends())
            if (e.name == cpuBackend && !e.available)
                throw UsageError("--backend " + cpuBackend + ": " + e.unavailableReason);
        options.cpuBackend = kind;
    }
    std::string why;
    auto backend = makeBackend(device, options, &why);
    if (!backend)
        throw UsageError("--device " + device + ": " + why);
    return backend;
}

std::string cpuBackendHelp() {
    return "cpu GEMM library: " + cpuBackendKindNames() + " (default " +
           std::string(cpuBackendKindName(defaultCpuBackend())) + ", the faster one in this build)";
}

} // namespace napkin::cli

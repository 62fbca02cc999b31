#include "cli/device_option.h"

#include "cli/number_option.h"
#include "engine/benchmarks/backend_registry.h"

namespace napkin::cli {

std::unique_ptr<BenchmarkBackend> backendForDevice(const std::string& device, int threads) {
    BackendOptions options;
    options.cpuThreads = threads;
    std::string why;
    auto backend = makeBackend(device, options, &why);
    if (!backend)
        throw UsageError("--device " + device + ": " + why);
    return backend;
}

} // namespace napkin::cli

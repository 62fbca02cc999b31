#include "engine/backend_registry.h"

#include "engine/cpu/cpu_backend.h"

namespace napkin {
namespace {

// The CUDA backend lives in engine/cuda and is not part of this build yet; when it is, it registers
// here and reports "no device" itself when the driver finds no GPU.
constexpr const char* kCudaReason =
    "the CUDA backend is not available: this napkin build has no CUDA backend (engine/cuda is not built "
    "into napkin-cli yet), so no GPU can be measured";

} // namespace

std::vector<BackendEntry> listBackends() {
    return {{"cpu", true, ""}, {"cuda", false, kCudaReason}};
}

std::unique_ptr<BenchmarkBackend> makeBackend(const std::string& name, std::string* whyNot) {
    if (name == "cpu")
        return std::make_unique<CpuBackend>();
    for (const BackendEntry& e : listBackends())
        if (e.name == name && !e.available) {
            if (whyNot)
                *whyNot = e.unavailableReason;
            return nullptr;
        }
    if (whyNot)
        *whyNot = "unknown backend '" + name + "' (known: cpu, cuda)";
    return nullptr;
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/backend_registry.h"

#include "engine/compute/cpu/cpu_backend.h"
#include "engine/compute/cpu/onednn_backend_factory.h"

#ifdef NAPKIN_WITH_CUDA_BACKEND
#include "engine/compute/cuda/cuda_backend_factory.h"
#endif

#include <exception>

namespace napkin {
namespace {

// Why "cuda" cannot be used here: empty when a device is present. A build with the CUDA backend asks
// the CUDA runtime (cudaGetDeviceCount); a build without it says so.
std::string cudaReason() {
#ifdef NAPKIN_WITH_CUDA_BACKEND
    return cudaBackendUnavailableReason();
#else
    return "the CUDA backend is not available: this napkin build has no CUDA backend (configured without "
           "nvcc or with -DNAPKIN_ENABLE_CUDA=OFF), so no GPU can be measured";
#endif
}

// The CUDA runtime the backend was built against; empty in a build without it.
std::string cudaVersion() {
#ifdef NAPKIN_WITH_CUDA_BACKEND
    return cudaRuntimeVersion();
#else
    return {};
#endif
}

} // namespace

std::vector<BackendEntry> listBackends() {
    const std::string why = cudaReason();
    return {{"cpu", true, "", ""}, {"cuda", why.empty(), why, cudaVersion()}};
}

std::vector<BackendEntry> listCpuBackends() {
    const std::string why = onednnBackendUnavailableReason();
    return {
        {std::string(cpuBackendKindName(CpuBackendKind::onednn)), why.empty(), why, onednnLibraryVersion()},
        {std::string(cpuBackendKindName(CpuBackendKind::eigen)), true, "", ""}};
}

CpuBackendKind defaultCpuBackend() {
    return onednnBackendUnavailableReason().empty() ? CpuBackendKind::onednn : CpuBackendKind::eigen;
}

std::unique_ptr<BenchmarkBackend> makeBackend(const std::string& name, std::string* whyNot) {
    return makeBackend(name, BackendOptions{}, whyNot);
}

std::unique_ptr<BenchmarkBackend> makeBackend(const std::string& name, const BackendOptions& options,
                                              std::string* whyNot) {
    if (name == "cpu") {
        CpuBackendOptions cpu;
        cpu.threads = options.cpuThreads;
        cpu.measurePeak = options.cpuMeasurePeak;
        const CpuBackendKind kind = options.cpuBackend.value_or(defaultCpuBackend());
        if (kind == CpuBackendKind::eigen)
            return std::make_unique<CpuBackend>(cpu);
        if (std::string why = onednnBackendUnavailableReason(); !why.empty()) {
            if (whyNot)
                *whyNot = why;
            return nullptr;
        }
        return makeOnednnBackend(cpu, !options.cpuBackend); // the default falls back to Eigen per type
    }
    if (name == "cuda") {
        std::string why = cudaReason();
#ifdef NAPKIN_WITH_CUDA_BACKEND
        if (why.empty()) {
            try {
                return makeCudaBackend();
            } catch (const std::exception& e) { // driver trouble, out of memory: a reason, not a crash
                why = std::string("the CUDA backend could not start: ") + e.what();
            }
        }
#endif
        if (whyNot)
            *whyNot = why;
        return nullptr;
    }
    if (whyNot)
        *whyNot = "unknown backend '" + name + "' (known: cpu, cuda)";
    return nullptr;
}

} // namespace napkin

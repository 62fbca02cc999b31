// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/copy_sweep.h"

#include "engine/benchmarks/backend_registry.h"

#ifdef NAPKIN_WITH_CUDA_BACKEND
#include "engine/compute/cuda/cuda_copy_factory.h"
#endif

namespace napkin {
namespace {

// Empty when `device` can run a host<->device measurement; the CUDA reason is the registry's own
// (driver, no device, not built), so every bench command says the same thing.
std::string reasonFor(const std::string& device, const char* what) {
    if (device == "cpu")
        return std::string(what) +
               " need a GPU: the cpu backend has no separate device memory (use --device cuda)";
    for (const BackendEntry& entry : listBackends())
        if (entry.name == device)
            return entry.available ? std::string() : entry.unavailableReason;
    return "unknown backend '" + device + "' (known: cpu, cuda)";
}

} // namespace

std::optional<CopySweep> runCopyBenchmark(const std::string& device, const std::vector<CopyCase>& cases,
                                          const CopyRunOptions& options, std::string* whyNot) {
    std::string why = reasonFor(device, "host-device copies");
#ifdef NAPKIN_WITH_CUDA_BACKEND
    if (why.empty())
        return runCudaCopySweep(cases, options);
#else
    (void)cases;
    (void)options;
#endif
    if (whyNot)
        *whyNot = why;
    return std::nullopt;
}

std::optional<AllocCheck> runAllocCheck(const std::string& device, std::string* whyNot) {
    std::string why = reasonFor(device, "device allocations");
#ifdef NAPKIN_WITH_CUDA_BACKEND
    if (why.empty())
        return runCudaAllocCheck();
#endif
    if (whyNot)
        *whyNot = why;
    return std::nullopt;
}

} // namespace napkin

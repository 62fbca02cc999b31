// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/memory_bandwidth_run.h"

#include "engine/benchmarks/backend_registry.h"
#include "engine/compute/cpu/stream_triad.h"
#include "engine/numerics/quantity_format.h"

#ifdef NAPKIN_WITH_CUDA_BACKEND
#include "engine/compute/cuda/cuda_bandwidth_factory.h"
#endif

#include <new>

namespace napkin {
namespace {

// Empty when `device` can be measured; the CUDA reason is the registry's own (driver, no device, not
// built), so every bench command says the same thing.
std::string reasonFor(const std::string& device) {
    for (const BackendEntry& entry : listBackends())
        if (entry.name == device)
            return entry.available ? std::string() : entry.unavailableReason;
    return "unknown device '" + device + "' (known: cpu, cuda)";
}

std::optional<MemoryBandwidthResult> fail(const std::string& why, std::string* whyNot) {
    if (whyNot)
        *whyNot = why;
    return std::nullopt;
}

} // namespace

std::optional<MemoryBandwidthResult>
runMemoryBandwidth(const std::string& device, const MemoryBandwidthOptions& options, std::string* whyNot) {
    if (std::string why = reasonFor(device); !why.empty())
        return fail(why, whyNot);
    if (device == "cpu") {
        try {
            return runCpuTriad(options);
        } catch (const std::bad_alloc&) {
            const std::uint64_t bytes = options.bytesPerArray;
            return fail(
                "could not allocate the three triad arrays" +
                    (bytes ? " of " + formatBytes(static_cast<double>(bytes), ByteUnits::binary) + " each"
                           : std::string()) +
                    " (give a smaller --bytes)",
                whyNot);
        }
    }
#ifdef NAPKIN_WITH_CUDA_BACKEND
    if (device == "cuda")
        return runCudaDeviceCopyBandwidth(options);
#endif
    return fail("device '" + device + "' has no memory-bandwidth measurement in this build", whyNot);
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/local_gpus.h"

#ifdef NAPKIN_WITH_CUDA_BACKEND
#include "engine/compute/cuda/cuda_backend_factory.h"
#endif

#include <exception>
#include <string_view>

namespace napkin {
namespace {

// The runtime's reason without its own "no CUDA device: " lead, so the answer says it once.
std::string withoutLead(std::string why) {
    constexpr std::string_view lead = "no CUDA device: ";
    if (std::string_view(why).starts_with(lead))
        why.erase(0, lead.size());
    return why;
}

LocalGpuReport queryDevices() {
    LocalGpuReport report;
#ifdef NAPKIN_WITH_CUDA_BACKEND
    if (std::string why = cudaBackendUnavailableReason(); !why.empty()) {
        report.noDeviceReason = withoutLead(std::move(why));
        return report;
    }
    try {
        report.devices = cudaLocalGpus();
    } catch (const std::exception& e) { // a driver error is a reason, not a crash
        report.noDeviceReason = std::string("the CUDA runtime failed: ") + e.what();
        return report;
    }
    if (report.devices.empty())
        report.noDeviceReason = "the CUDA runtime reports 0 devices";
#else
    report.noDeviceReason = "this napkin build has no CUDA backend";
#endif
    return report;
}

} // namespace

ThisMachineGpus matchLocalGpus(const LocalGpuReport& report, const GpuCatalog& catalog) {
    ThisMachineGpus answer;
    if (!report.noDeviceReason.empty() || report.devices.empty()) {
        answer.noDeviceReason =
            "no CUDA device found: " +
            (report.noDeviceReason.empty() ? std::string("none reported") : report.noDeviceReason);
        return answer;
    }
    for (const LocalGpu& device : report.devices)
        answer.gpus.push_back({device, matchDevice(device.name, device.memoryBytes, catalog)});
    return answer;
}

ThisMachineGpus thisMachineGpus(const GpuCatalog& catalog) {
    return matchLocalGpus(queryDevices(), catalog);
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/onednn_backend_factory.h"

#include "engine/compute/cpu/onednn_backend.h"
#include "engine/compute/cpu/onednn_gemm.h"

namespace napkin {

std::string onednnBackendUnavailableReason() {
    return {};
}

std::string onednnLibraryVersion() {
    return onednnVersion();
}

std::unique_ptr<BenchmarkBackend> makeOnednnBackend(const CpuBackendOptions& cpu, bool eigenFallback) {
    OnednnBackendOptions options;
    options.cpu = cpu;
    options.eigenFallback = eigenFallback;
    return std::make_unique<OnednnBackend>(options);
}

} // namespace napkin

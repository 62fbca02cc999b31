// SPDX-License-Identifier: GPL-3.0-or-later
// This build has no oneDNN: the registry lists the backend as missing, with the reason CMake recorded.
#include "engine/compute/cpu/onednn_backend_factory.h"

#include <stdexcept>

#ifndef NAPKIN_ONEDNN_MISSING_REASON // set by CMake; a tool reading this file outside that build gets this
#define NAPKIN_ONEDNN_MISSING_REASON "not configured with it"
#endif

namespace napkin {

std::string onednnBackendUnavailableReason() {
    return "the onednn backend is not available: this napkin build has no oneDNN "
           "(" NAPKIN_ONEDNN_MISSING_REASON "); the cpu runs on Eigen";
}

std::string onednnLibraryVersion() {
    return {};
}

std::unique_ptr<BenchmarkBackend> makeOnednnBackend(const CpuBackendOptions&, bool) {
    throw std::runtime_error(onednnBackendUnavailableReason());
}

} // namespace napkin

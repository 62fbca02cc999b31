#pragma once
// Which compute backends this build has, and why a missing one is missing.
#include "engine/compute/benchmark_backend.h"

#include <memory>
#include <string>
#include <vector>

namespace napkin {

struct BackendEntry {
    std::string name; ///< "cpu", "cuda"
    bool available = false;
    std::string unavailableReason; ///< empty when available
};

/// Every backend napkin knows about, available or not: the CPU (Eigen) backend is always there.
std::vector<BackendEntry> listBackends();

/// How to make a backend; the defaults are what a user gets without asking.
struct BackendOptions {
    int cpuThreads = 0; ///< CPU GEMM and FMA-loop threads; 0: one per physical core
};

/// The backend called `name`, or nullptr with `whyNot` set (unknown name, not built, no device).
std::unique_ptr<BenchmarkBackend> makeBackend(const std::string& name, std::string* whyNot = nullptr);
std::unique_ptr<BenchmarkBackend> makeBackend(const std::string& name, const BackendOptions& options,
                                              std::string* whyNot = nullptr);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Benchmarks page's backend, kept between runs: the CPU backend measures its FMA peak once (about a
// second), a GPU backend holds its context. Made on the worker thread the first time a run needs it,
// and made anew when the device or the CPU backend changes. Touched by the page's TaskRunner jobs only,
// one at a time.
#include "app/benchmarks/recipe_comparison.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/compute/benchmark_backend.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

/// What a device and CPU library can run, as the backend itself says: each type and training recipe it
/// refuses, with its reason (BenchmarkBackend::unsupportedReason / unsupportedPrecisionReason).
struct BackendSupport {
    std::map<napkin::BenchDtype, std::string> unsupportedDtypes;
    std::map<napkin::PrecisionRecipe, std::string> unsupportedRecipes;
    /// Of the recipes the page compares (tf32 included, a matmul mode rather than a PrecisionRecipe), those
    /// the Cruncher trainer refuses (refusedRecipes).
    std::vector<RecipeRefusal> refusedRecipes;
    std::string error; ///< the backend could not be made at all (then the rest is empty)
};

class BackendCache {
public:
    using Factory = std::function<std::unique_ptr<napkin::BenchmarkBackend>(
        const std::string& device, const napkin::BackendOptions& options)>;

    /// Backends come from the engine's registry; an unavailable one throws with the registry's reason.
    BackendCache();

    /// The backend for `device` made with `options` (the CPU's GEMM library), made now if it is not the
    /// one held (worker thread). Throws.
    napkin::BenchmarkBackend& backendFor(const std::string& device,
                                         const napkin::BackendOptions& options = {});
    /// What `device` with `options` can run (GUI thread). Asked of a backend made for the question alone
    /// (no FMA-peak run, never the one a worker may be using) and kept per device and options, so a GPU
    /// context is made once per device.
    BackendSupport supportFor(const std::string& device, const napkin::BackendOptions& options = {});
    /// Replaces how backends are made (tests: a backend that refuses a dtype); the next run makes one.
    void setFactory(Factory factory);

private:
    std::mutex m_mutex; // setFactory (GUI thread) against backendFor (worker)
    Factory m_factory;
    std::string m_device;
    napkin::BackendOptions m_options;
    std::unique_ptr<napkin::BenchmarkBackend> m_backend;
    std::map<std::pair<std::string, std::string>, BackendSupport> m_support; // (device, library)
};

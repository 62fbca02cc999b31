// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/backend_cache.h"

#include <stdexcept>

BackendCache::BackendCache()
    : m_factory([](const std::string& device, const napkin::BackendOptions& options) {
        std::string why;
        auto backend = napkin::makeBackend(device, options, &why);
        if (!backend)
            throw std::runtime_error(why);
        return backend;
    }) {}

napkin::BenchmarkBackend& BackendCache::backendFor(const std::string& device,
                                                   const napkin::BackendOptions& options) {
    const std::lock_guard lock(m_mutex);
    if (!m_backend || m_device != device || !(m_options == options)) {
        m_backend.reset(); // a GPU backend frees its device memory before the next one starts
        m_backend = m_factory(device, options);
        m_device = device;
        m_options = options;
    }
    return *m_backend;
}

BackendSupport BackendCache::supportFor(const std::string& device, const napkin::BackendOptions& options) {
    const std::pair<std::string, std::string> key{
        device, options.cpuBackend ? std::string(napkin::cpuBackendKindName(*options.cpuBackend)) : ""};
    Factory factory;
    {
        const std::lock_guard lock(m_mutex);
        if (const auto it = m_support.find(key); it != m_support.end())
            return it->second;
        factory = m_factory;
    }
    BackendSupport support;
    try {
        napkin::BackendOptions probe = options;
        probe.cpuMeasurePeak = false; // the reasons need no peak
        const std::unique_ptr<napkin::BenchmarkBackend> backend = factory(device, probe);
        for (napkin::BenchDtype d : napkin::allBenchDtypes())
            if (std::string why = backend->unsupportedReason(d); !why.empty())
                support.unsupportedDtypes[d] = std::move(why);
        for (napkin::PrecisionRecipe r : napkin::allPrecisionRecipes())
            if (std::string why = backend->unsupportedPrecisionReason(r); !why.empty())
                support.unsupportedRecipes[r] = std::move(why);
        support.refusedRecipes = refusedRecipes(*backend, napkin::CruncherConfig{});
    } catch (const std::exception& e) {
        support.error = e.what();
    }
    const std::lock_guard lock(m_mutex);
    m_support[key] = support;
    return support;
}

void BackendCache::setFactory(Factory factory) {
    const std::lock_guard lock(m_mutex);
    m_factory = std::move(factory);
    m_support.clear();
    m_device.clear(); // the backend held is replaced by the next run, on the worker that may be using it now
}

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

void BackendCache::setFactory(Factory factory) {
    const std::lock_guard lock(m_mutex);
    m_factory = std::move(factory);
    m_device.clear(); // the backend held is replaced by the next run, on the worker that may be using it now
}

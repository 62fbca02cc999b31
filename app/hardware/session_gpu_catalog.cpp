// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/hardware/session_gpu_catalog.h"

#include "engine/hardware/gpu_catalog_writer.h"
#include "engine/text/ascii_case.h"

#include <algorithm>

SessionGpuCatalog& SessionGpuCatalog::instance() {
    static SessionGpuCatalog session; // lives until the app exits; no parent, no thread of its own
    return session;
}

void SessionGpuCatalog::add(const napkin::GpuSpec& gpu) {
    if (!napkin::addGpu(m_catalog, gpu).empty())
        return; // a part the catalog's reader refuses is not the session's (the dialog checks first)
    auto same = [&](const napkin::GpuSpec& g) { return napkin::equalsIgnoringCase(g.id, gpu.id); };
    if (auto it = std::find_if(m_userParts.begin(), m_userParts.end(), same); it != m_userParts.end())
        *it = gpu;
    else
        m_userParts.push_back(gpu);
    emit changed();
}

const napkin::GpuCatalog& sessionGpuCatalog() {
    return SessionGpuCatalog::instance().catalog();
}

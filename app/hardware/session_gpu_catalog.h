// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The GPUs this session of the app knows: the built-in catalog plus the parts the user defined (the
// "Custom GPU…" dialog) or opened with a scenario. Every page that chooses or looks up a GPU asks here, so
// a part defined on one page is there on every page.
#include "engine/hardware/gpu_catalog.h"

#include <QObject>

#include <vector>

class SessionGpuCatalog : public QObject {
    Q_OBJECT
public:
    /// The app's one session catalog (created on first use, on the GUI thread).
    static SessionGpuCatalog& instance();

    const napkin::GpuCatalog& catalog() const { return m_catalog; }
    /// The parts added this session, in the order they were added (a scenario file carries them).
    const std::vector<napkin::GpuSpec>& userParts() const { return m_userParts; }
    /// Adds `gpu` (replacing a user part with its id) and emits changed(); a part the catalog's reader
    /// refuses (a figure out of range) is not added.
    void add(const napkin::GpuSpec& gpu);

signals:
    void changed();

private:
    SessionGpuCatalog() = default;
    napkin::GpuCatalog m_catalog = napkin::GpuCatalog::builtIn();
    std::vector<napkin::GpuSpec> m_userParts;
};

/// SessionGpuCatalog::instance().catalog(): what a page passes to validate() and account().
const napkin::GpuCatalog& sessionGpuCatalog();

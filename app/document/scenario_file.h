// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Scenario files on disk: read through the engine's readScenarioFile (bounded, one-line messages that
// name the file), or written atomically (QSaveFile), so that a crash mid-save leaves the previous file
// as it was.
#include "engine/scenario/scenario.h"

#include <QString>
#include <QStringList>

#include <optional>

struct ScenarioLoad {
    std::optional<napkin::Scenario> scenario;
    QString error;        ///< "FILE: why", empty on success
    QStringList warnings; ///< the file loaded, but these parts were ignored
    bool ok() const { return scenario.has_value(); }
};

/// Reads and validates `path`; nothing is applied anywhere, so a refused file changes nothing.
ScenarioLoad loadScenarioFile(const QString& path);
/// Writes `scenario` to `path` through QSaveFile. Returns an error message, or an empty string.
QString saveScenarioFile(const napkin::Scenario& scenario, const QString& path);

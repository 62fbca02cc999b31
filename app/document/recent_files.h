// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The files opened or saved lately in the window, newest first, kept in QSettings ("recentScenarios", its
// name from when it held scenarios alone): scenario files, and the model configs and measured runs opened.
#include <QStringList>

class QSettings;

namespace RecentFiles {

inline constexpr int kMaximum = 8;

/// The list as stored; entries whose file has gone are kept (the menu says so when one is chosen).
QStringList list(const QSettings& settings);
/// Moves `path` (made absolute) to the front, drops duplicates and the oldest past kMaximum.
void add(QSettings& settings, const QString& path);
void remove(QSettings& settings, const QString& path);

} // namespace RecentFiles

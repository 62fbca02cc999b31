#pragma once
// The scenario files opened or saved lately, newest first, kept in QSettings ("recentScenarios").
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

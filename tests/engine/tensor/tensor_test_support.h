// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small helpers shared by the tensor suites: "2,3" ↔ std::vector<int64_t>.
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

inline std::vector<int64_t> ints(const QString& text) {
    std::vector<int64_t> values;
    if (text.trimmed().isEmpty())
        return values;
    for (const QString& part : text.split(','))
        values.push_back(part.trimmed().toLongLong());
    return values;
}

inline QString text(const std::vector<int64_t>& values) {
    QStringList parts;
    for (int64_t v : values)
        parts << QString::number(v);
    return parts.join(',');
}

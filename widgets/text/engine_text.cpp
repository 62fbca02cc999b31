// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_text.h"

#include "engine/numerics/quantity_format.h"

#include <QStringList>

QString toQString(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString numberText(double value) {
    return toQString(napkin::formatNumber(value));
}

QString bytesText(double bytes) {
    return toQString(napkin::formatBytes(bytes));
}

QString tupleText(const std::vector<int64_t>& values) {
    QStringList parts;
    for (const int64_t v : values)
        parts << QString::number(v);
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) +
           (values.size() == 1 ? QStringLiteral(",)") : QStringLiteral(")"));
}

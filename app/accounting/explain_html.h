// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The few HTML pieces the "How is this computed?" texts are built from (explain_accounting.cpp,
// explain_ledgers.cpp): escaped text, numbers in formula style, formulas as code, section headings.
#include "engine/numerics/quantity_format.h"

#include <QString>

#include <string>

namespace explain_html {

inline QString q(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}
inline QString n(double v) {
    return q(napkin::formatNumber(v));
}
inline QString code(const std::string& s) {
    return QStringLiteral("<code>%1</code>").arg(q(s));
}
inline QString heading(const QString& text) {
    return QStringLiteral("<h3>%1</h3>").arg(text);
}
/// A table cell; `numberCell` aligns a figure to the right.
inline QString cell(const QString& text) {
    return QStringLiteral("<td>%1</td>").arg(text);
}
inline QString numberCell(const QString& text) {
    return QStringLiteral("<td align=\"right\">%1</td>").arg(text);
}

} // namespace explain_html

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Text measured once per font: QFontMetrics shapes its text again on every call (harfbuzz), and the charts'
// fitting (tick labels, axis titles, legends) and the answers' columns ask for the same texts' widths
// several times in every slider tick, ten per cent of a gpt3-175b tick (docs/benchmarks.md). The figures are
// QFontMetrics' own, remembered by the font (its key and the metrics' height, which follow the size and the
// screen's dots per inch) and the text; the first 4096 texts are kept, then the memory starts again.
#include <QFont>
#include <QSize>
#include <QString>

namespace measuredText {

/// QFontMetrics(font).horizontalAdvance(text).
int horizontalAdvance(const QFont& font, const QString& text);
/// QFontMetricsF(font).horizontalAdvance(text).
qreal horizontalAdvanceF(const QFont& font, const QString& text);
/// QFontMetrics(font).boundingRect(QRect(0, 0, 100000, 100000), Qt::AlignLeft | Qt::AlignTop, text).size():
/// the box a (possibly multi-line) label draws in, as the charts' tick labels are.
QSize boundingSize(const QFont& font, const QString& text);
/// How many texts were shaped (not found remembered) since the program began: the work-count guard's.
long long shapedCount();

} // namespace measuredText

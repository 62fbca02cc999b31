// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/text/measured_text.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QHash>
#include <QRect>

namespace measuredText {
namespace {

enum class Measure { advance, advanceF, bounding };

struct Key {
    QString font; ///< QFont::key() and the metrics' height: size, family, weight and the screen's dpi
    QString text;
    Measure measure;
    bool operator==(const Key&) const = default;
};

size_t qHash(const Key& key, size_t seed = 0) {
    return qHashMulti(seed, key.font, key.text, static_cast<int>(key.measure));
}

struct Measured {
    qreal advance = 0;
    QSize size;
};

constexpr qsizetype kMostRemembered = 4096;
long long shaped = 0;

QHash<Key, Measured>& remembered() {
    static QHash<Key, Measured> table;
    return table;
}

QString fontKey(const QFont& font) {
    return font.key() + QLatin1Char('@') + QString::number(QFontMetricsF(font).height());
}

const Measured& measured(const QFont& font, const QString& text, Measure measure) {
    QHash<Key, Measured>& table = remembered();
    Key key{fontKey(font), text, measure};
    const auto it = table.constFind(key);
    if (it != table.cend())
        return *it;
    if (table.size() >= kMostRemembered)
        table.clear();
    ++shaped;
    Measured m;
    switch (measure) {
    case Measure::advance:
        m.advance = QFontMetrics(font).horizontalAdvance(text);
        break;
    case Measure::advanceF:
        m.advance = QFontMetricsF(font).horizontalAdvance(text);
        break;
    case Measure::bounding:
        m.size = QFontMetrics(font)
                     .boundingRect(QRect(0, 0, 100000, 100000), Qt::AlignLeft | Qt::AlignTop, text)
                     .size();
        break;
    }
    return *table.insert(key, m);
}

} // namespace

int horizontalAdvance(const QFont& font, const QString& text) {
    return static_cast<int>(measured(font, text, Measure::advance).advance);
}

qreal horizontalAdvanceF(const QFont& font, const QString& text) {
    return measured(font, text, Measure::advanceF).advance;
}

QSize boundingSize(const QFont& font, const QString& text) {
    return measured(font, text, Measure::bounding).size;
}

long long shapedCount() {
    return shaped;
}

} // namespace measuredText

// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/tensor/step_list.h"

#include "engine/tensor/tensor_expression.h"
#include "widgets/text/engine_text.h"

#include <QEvent>
#include <QScrollBar>
#include <QStyle>

#include <algorithm>

namespace {

// The most a line may take, in average characters: "stride (48, 12, 1, 4)" and its indent whole, and a
// projector's 1024 pixels left to the stride view in presentation type.
constexpr int kMostColumns = 30;

// The step's own operation: its expression less the one before it ("x.transpose(1, 0)" after "x" is
// ".transpose(1, 0)"); the whole expression where it does not extend the one before.
QString operationOf(const std::vector<napkin::TensorStep>& steps, std::size_t i) {
    QString expr = QString::fromStdString(steps[i].expr);
    if (i == 0)
        return expr;
    const QString before = QString::fromStdString(steps[i - 1].expr);
    return expr.startsWith(before) && expr.size() > before.size() ? expr.mid(before.size()) : expr;
}

} // namespace

StepList::StepList(QWidget* parent)
    : QListWidget(parent) {
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setTextElideMode(Qt::ElideNone);
}

void StepList::setSteps(const napkin::TensorEvaluation& evaluation) {
    m_lines.clear();
    for (std::size_t i = 0; i < evaluation.steps.size(); ++i) {
        const napkin::TensorStep& s = evaluation.steps[i];
        QStringList lines{QStringLiteral("%1  %2").arg(i).arg(operationOf(evaluation.steps, i)),
                          tr("    shape %1").arg(tupleText(s.layout.shape)),
                          tr("    stride %1").arg(tupleText(s.layout.stride))};
        if (i > 0 && !s.isView)
            lines << tr("    copy, %1").arg(bytesText(static_cast<double>(s.bytesCopied)));
        m_lines.push_back(lines);
    }
    m_failed = evaluation.error.has_value();
    if (m_failed)
        m_lines.push_back({tr("%1  error").arg(evaluation.error->step)});
    fill();
}

QStringList StepList::brokenToFit(const QString& line, const QFontMetrics& metrics, int room) {
    if (metrics.horizontalAdvance(line) <= room)
        return {line};
    qsizetype indent = 0;
    while (indent < line.size() && line[indent] == QLatin1Char(' '))
        ++indent;
    const QString lead(std::max<qsizetype>(indent, 4), QLatin1Char(' '));
    QStringList out;
    QString rest = line;
    while (metrics.horizontalAdvance(rest) > room) {
        const qsizetype start = out.isEmpty() ? indent : lead.size(); // never a piece of indent alone
        qsizetype fits = start + 1;
        while (fits < rest.size() && metrics.horizontalAdvance(rest.left(fits + 1)) <= room)
            ++fits;
        if (fits >= rest.size())
            break;
        // The longest head that fits, ending after a comma or a space, or before a dot, where there is one.
        qsizetype cut = fits;
        for (qsizetype k = fits; k > start + 1; --k)
            if (rest[k - 1] == QLatin1Char(',') || rest[k - 1] == QLatin1Char(' ') ||
                rest[k] == QLatin1Char('.')) {
                cut = k;
                break;
            }
        QString head = rest.left(cut);
        while (head.endsWith(QLatin1Char(' ')))
            head.chop(1);
        out << head;
        rest = lead + rest.mid(cut).trimmed();
    }
    if (!rest.trimmed().isEmpty())
        out << rest;
    return out;
}

void StepList::fill() {
    const int row = currentRow();
    const QFontMetrics metrics(font());
    const int cap = kMostColumns * metrics.averageCharWidth();
    int widest = 0;
    for (const QStringList& lines : m_lines)
        for (const QString& line : lines)
            widest = std::max(widest, metrics.horizontalAdvance(line));
    m_textWidth = std::min(widest, cap);
    clear();
    for (const QStringList& lines : m_lines) {
        QStringList broken;
        for (const QString& line : lines)
            broken << brokenToFit(line, metrics, m_textWidth);
        addItem(broken.join(QLatin1Char('\n')));
    }
    if (m_failed && count() > 0) {
        QListWidgetItem* failing = item(count() - 1);
        failing->setFlags(Qt::ItemIsEnabled);
        failing->setForeground(QColor(0xc6, 0x28, 0x28));
    }
    if (row >= 0 && row < count())
        setCurrentRow(row);
    updateGeometry();
}

int StepList::widthFor(int textWidth) const {
    // The text, the item's margins and focus frame, the frame, and the vertical bar that long chains need.
    const int margins = 2 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 8;
    return textWidth + margins + 2 * frameWidth() + verticalScrollBar()->sizeHint().width();
}

QSize StepList::sizeHint() const {
    return {widthFor(std::max(m_textWidth, 20 * fontMetrics().averageCharWidth())),
            QListWidget::sizeHint().height()};
}

QSize StepList::minimumSizeHint() const {
    return {widthFor(m_textWidth), QListWidget::minimumSizeHint().height()};
}

void StepList::changeEvent(QEvent* event) {
    QListWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange && !m_lines.empty()) {
        const QSignalBlocker block(this);
        fill();
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/answers_grid.h"
#include "widgets/text/measured_text.h"

#include <QApplication>
#include <QEnterEvent>
#include <QEvent>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QGridLayout>
#include <QLabel>
#include <QResizeEvent>

#include <algorithm>

namespace {

constexpr int kIndent = 12;         ///< a formula (or a stacked value) under its title is indented
constexpr int kFormulaColumns = 28; ///< the least room for a formula beside its value, in characters

// The width of a label's text on one line (its longest line), margins included.
int textWidth(const QLabel* label) {
    int width = 0;
    for (const QString& line : label->text().split(QLatin1Char('\n')))
        width = std::max(width, measuredText::horizontalAdvance(label->font(), line));
    const QMargins m = label->contentsMargins();
    return width + m.left() + m.right() + 2 * label->margin();
}

} // namespace

AnswersGrid::AnswersGrid(QWidget* parent)
    : QWidget(parent)
    , m_grid(new QGridLayout(this)) {
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setHorizontalSpacing(12);
    connect(qApp, &QApplication::focusChanged, this, [this] { dropSelectableWhenIdle(); });
    m_heldByMouse.setInterval(50);
    connect(&m_heldByMouse, &QTimer::timeout, this, [this] {
        if (QGuiApplication::mouseButtons() != Qt::NoButton)
            return;
        m_heldByMouse.stop();
        rearrangeForNewText();
    });
}

void AnswersGrid::enterEvent(QEnterEvent* event) {
    setSelectable(true);
    QWidget::enterEvent(event);
}

void AnswersGrid::leaveEvent(QEvent* event) {
    dropSelectableWhenIdle();
    QWidget::leaveEvent(event);
}

void AnswersGrid::dropSelectableWhenIdle() {
    if (!m_selectable || underMouse())
        return;
    const QWidget* focus = QApplication::focusWidget();
    if (focus && isAncestorOf(focus))
        return;
    setSelectable(false);
}

void AnswersGrid::setSelectable(bool selectable) {
    if (selectable == m_selectable)
        return;
    m_selectable = selectable;
    const Qt::TextInteractionFlags flags = selectable ? Qt::TextSelectableByMouse : Qt::NoTextInteraction;
    for (const Row& row : m_rows)
        for (QLabel* l : {row.value, row.formula})
            l->setTextInteractionFlags(flags);
}

void AnswersGrid::setFormulaBesideWhenRoom(bool beside) {
    m_besideWhenRoom = beside;
    m_valueRoom = 0;
    arrange(fitting(width()));
}

void AnswersGrid::addRow(const QString& key, const QString& title) {
    Row row{new QLabel(title, this), new QLabel(this), new QLabel(this)};
    QFont bold = row.value->font();
    bold.setBold(true);
    row.value->setFont(bold);
    // The family only: the size follows the window's, presentation mode's larger type included.
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::TypeWriter);
    row.formula->setFont(mono);
    row.formula->setForegroundRole(QPalette::PlaceholderText);
    for (QLabel* l : {row.title, row.value, row.formula})
        l->setWordWrap(true); // the longest word is the least a label needs: no sideways scrolling
    for (QLabel* l : {row.value, row.formula})
        l->setTextInteractionFlags(m_selectable ? Qt::TextSelectableByMouse : Qt::NoTextInteraction);
    row.value->setObjectName(QStringLiteral("value_") + key);
    row.formula->setObjectName(QStringLiteral("formula_") + key);
    m_keys << key;
    m_rows.insert(key, row);
    arrange(m_arrangement);
}

void AnswersGrid::setRow(const QString& key, const QString& value, const QString& formula) {
    const Row& row = m_rows[key];
    row.value->setText(value);
    row.formula->setText(formula);
}

void AnswersGrid::setRowVisible(const QString& key, bool visible) {
    const Row& row = m_rows[key];
    if (row.value->isHidden() != visible)
        return;
    for (QLabel* l : {row.title, row.value, row.formula})
        l->setVisible(visible);
}

QString AnswersGrid::valueText(const QString& key) const {
    const auto it = m_rows.find(key);
    return it == m_rows.end() ? QString() : it->value->text();
}

QString AnswersGrid::formulaText(const QString& key) const {
    const auto it = m_rows.find(key);
    return it == m_rows.end() ? QString() : it->formula->text();
}

int AnswersGrid::widest(QLabel* Row::*label) const {
    int width = 0;
    for (const Row& row : m_rows)
        if (!row.value->isHidden())
            width = std::max(width, textWidth(row.*label));
    return width;
}

AnswersGrid::Arrangement AnswersGrid::fitting(int width) const {
    const QMargins m = m_grid->contentsMargins();
    const int room = width - m.left() - m.right();
    const int spacing = std::max(0, m_grid->horizontalSpacing());
    const int titleAndValue = widest(&Row::title) + spacing + valueRoom();
    if (m_besideWhenRoom && !m_rows.isEmpty()) {
        const int formula =
            QFontMetrics(m_rows.begin()->formula->font()).averageCharWidth() * kFormulaColumns;
        if (titleAndValue + spacing + formula <= room)
            return Arrangement::formulaBeside;
    }
    return titleAndValue <= room ? Arrangement::formulaBelow : Arrangement::stacked;
}

QSize AnswersGrid::minimumSizeHint() const {
    const QSize own = QWidget::minimumSizeHint();
    int width = 0;
    for (const Row& row : m_rows)
        for (const QLabel* l : {row.title, row.value, row.formula})
            width = std::max(width, l->minimumSizeHint().width() + (l == row.title ? 0 : kIndent));
    const QMargins m = m_grid->contentsMargins();
    return {width + m.left() + m.right(), own.height()};
}

int AnswersGrid::valueRoom() const {
    return std::max(m_valueRoom, widest(&Row::value));
}

void AnswersGrid::resizeEvent(QResizeEvent* event) {
    if (event->size().width() != event->oldSize().width())
        m_valueRoom = 0; // a new width: the values as they are now decide
    arrange(fitting(event->size().width()));
    m_valueRoom = valueRoom();
    QWidget::resizeEvent(event);
}

// A new value or font changes the widths: the labels ask for a new layout, and the arrangement is
// reconsidered once per event-loop turn before it is laid out.
bool AnswersGrid::event(QEvent* event) {
    if (event->type() == QEvent::FontChange)
        m_valueRoom = 0;
    if (event->type() == QEvent::LayoutRequest)
        rearrangeForNewText();
    return QWidget::event(event);
}

// While a button is down the columns stay as they are too: widening one to a longer value could make the
// grid wider than its panel; the labels wrap until the release.
void AnswersGrid::rearrangeForNewText() {
    if (QGuiApplication::mouseButtons() != Qt::NoButton && m_grid->count() == 3 * m_keys.size()) {
        if (!m_heldByMouse.isActive())
            m_heldByMouse.start();
        return;
    }
    arrange(fitting(width()));
    m_valueRoom = valueRoom();
}

void AnswersGrid::arrange(Arrangement arrangement) {
    if (arrangement == m_arrangement && m_grid->count() == 3 * m_keys.size()) {
        fitColumns();
        return;
    }
    m_arrangement = arrangement;
    for (const Row& row : m_rows)
        for (QLabel* l : {row.title, row.value, row.formula})
            m_grid->removeWidget(l);
    for (int c = 0; c < 3; ++c) {
        m_grid->setColumnStretch(c, 0);
        m_grid->setColumnMinimumWidth(c, 0);
    }
    for (qsizetype i = 0; i < m_keys.size(); ++i) {
        const Row& row = m_rows[m_keys[i]];
        const int r = static_cast<int>(i);
        switch (arrangement) {
        case Arrangement::formulaBeside:
            row.value->setContentsMargins(0, 0, 0, 0);
            row.formula->setContentsMargins(0, 0, 0, 0);
            m_grid->addWidget(row.title, r, 0, Qt::AlignTop);
            m_grid->addWidget(row.value, r, 1, Qt::AlignTop);
            m_grid->addWidget(row.formula, r, 2, Qt::AlignTop);
            break;
        case Arrangement::formulaBelow:
            row.value->setContentsMargins(0, 0, 0, 0);
            row.formula->setContentsMargins(kIndent, 0, 0, 6);
            m_grid->addWidget(row.title, 2 * r, 0, Qt::AlignTop);
            m_grid->addWidget(row.value, 2 * r, 1, Qt::AlignTop);
            m_grid->addWidget(row.formula, 2 * r + 1, 0, 1, 2, Qt::AlignTop);
            break;
        case Arrangement::stacked:
            row.value->setContentsMargins(kIndent, 0, 0, 0);
            row.formula->setContentsMargins(kIndent, 0, 0, 6);
            m_grid->addWidget(row.title, 3 * r, 0, Qt::AlignTop);
            m_grid->addWidget(row.value, 3 * r + 1, 0, Qt::AlignTop);
            m_grid->addWidget(row.formula, 3 * r + 2, 0, Qt::AlignTop);
            break;
        }
    }
    m_grid->setColumnStretch(arrangement == Arrangement::formulaBeside  ? 2
                             : arrangement == Arrangement::formulaBelow ? 1
                                                                        : 0,
                             1);
    fitColumns();
}

// Wrapped labels would otherwise share the row's width by their size hints: titles and values keep their
// one-line width while the arrangement has room for it; the last column takes the rest. Set only when it
// changed: setting a column's minimum asks for a new layout, which would come back here.
void AnswersGrid::fitColumns() {
    const bool columns = m_arrangement != Arrangement::stacked;
    const int widths[] = {columns ? widest(&Row::title) : 0, columns ? widest(&Row::value) : 0};
    for (int c = 0; c < 2; ++c)
        if (m_grid->columnMinimumWidth(c) != widths[c])
            m_grid->setColumnMinimumWidth(c, widths[c]);
}

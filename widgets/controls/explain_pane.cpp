// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/explain_pane.h"

#include <QScrollBar>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

ExplainPane::ExplainPane(QWidget* parent)
    : QWidget(parent)
    , m_toggle(new QToolButton(this))
    , m_browser(new QTextBrowser(this))
    , m_refresh(new QTimer(this)) {
    setObjectName(QStringLiteral("explainPane"));
    m_toggle->setText(tr("How is this computed?"));
    m_toggle->setCheckable(true);
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toggle->setArrowType(Qt::RightArrow);
    m_toggle->setAutoRaise(true);
    m_toggle->setToolTip(tr("Show the formulas behind this page, filled with the numbers on screen"));
    m_browser->setOpenExternalLinks(false);
    m_browser->setMinimumHeight(120);
    m_browser->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_toggle, 0, Qt::AlignLeft);
    layout->addWidget(m_browser, 1);
    // Open, the pane follows a slider drag 100 ms behind: laying out the derivation on every tick
    // would double the tick's cost (measured with bench_accounting_page).
    m_refresh->setSingleShot(true);
    m_refresh->setInterval(100);
    connect(m_refresh, &QTimer::timeout, this, &ExplainPane::showPending);
    connect(m_toggle, &QToolButton::toggled, this, &ExplainPane::setExpanded);
    setExpanded(false);
}

void ExplainPane::setHtml(const QString& html) {
    m_make = {};
    if (html == m_html && !m_stale)
        return;
    m_html = html;
    m_stale = true;
    if (isExpanded())
        m_refresh->start();
}

void ExplainPane::setHtmlSource(std::function<QString()> make) {
    m_make = std::move(make);
    m_stale = true;
    if (isExpanded())
        m_refresh->start();
}

void ExplainPane::make() const {
    if (!m_make)
        return;
    m_html = m_make();
    m_make = {};
    ++m_made;
}

QString ExplainPane::html() const {
    make();
    return m_html;
}

void ExplainPane::showPending() {
    if (!m_stale)
        return;
    make();
    m_stale = false;
    if (m_html == m_shown) // made again the same: no new layout, no jump
        return;
    const int scroll = m_browser->verticalScrollBar()->value();
    m_browser->setHtml(m_html);
    m_shown = m_html;
    m_browser->verticalScrollBar()->setValue(scroll);
}

QString ExplainPane::plainText() const {
    if (!m_stale)
        return m_browser->toPlainText();
    QTextDocument document;
    document.setHtml(html());
    return document.toPlainText();
}

bool ExplainPane::isExpanded() const {
    return m_toggle->isChecked();
}

void ExplainPane::setExpanded(bool expanded) {
    if (m_toggle->isChecked() != expanded)
        m_toggle->setChecked(expanded); // re-enters through toggled
    m_toggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    if (expanded)
        showPending();
    m_browser->setVisible(expanded);
    // Collapsed, the pane is one button high and leaves the room to the page; expanded, it shares it.
    setSizePolicy(QSizePolicy::Preferred, expanded ? QSizePolicy::Expanding : QSizePolicy::Maximum);
}

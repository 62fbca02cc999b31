#include "app/explain_pane.h"

#include <QScrollBar>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

ExplainPane::ExplainPane(QWidget* parent)
    : QWidget(parent)
    , m_toggle(new QToolButton(this))
    , m_browser(new QTextBrowser(this)) {
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
    connect(m_toggle, &QToolButton::toggled, this, &ExplainPane::setExpanded);
    setExpanded(false);
}

void ExplainPane::setHtml(const QString& html) {
    const int scroll = m_browser->verticalScrollBar()->value();
    m_browser->setHtml(html);
    m_browser->verticalScrollBar()->setValue(scroll);
}

QString ExplainPane::plainText() const {
    return m_browser->toPlainText();
}

bool ExplainPane::isExpanded() const {
    return m_toggle->isChecked();
}

void ExplainPane::setExpanded(bool expanded) {
    if (m_toggle->isChecked() != expanded)
        m_toggle->setChecked(expanded); // re-enters through toggled
    m_toggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_browser->setVisible(expanded);
    // Collapsed, the pane is one button high and leaves the room to the page; expanded, it shares it.
    setSizePolicy(QSizePolicy::Preferred, expanded ? QSizePolicy::Expanding : QSizePolicy::Maximum);
}

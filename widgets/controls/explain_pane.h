// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The collapsible "How is this computed?" pane under each page: a toggle button and a text browser
// holding the page's derivation. The page decides the text; the pane only shows it.
#include <QWidget>

#include <functional>

class QTextBrowser;
class QTimer;
class QToolButton;

class ExplainPane : public QWidget {
    Q_OBJECT
public:
    explicit ExplainPane(QWidget* parent = nullptr);

    /// Replaces the text (HTML), keeping the scroll position so live updates do not jump. Collapsed,
    /// the text is only kept and laid out when the pane opens; open, it is shown 100 ms after the
    /// last change, so a slider drag does not lay it out on every tick.
    void setHtml(const QString& html);
    /// As setHtml, the text made only when it is shown or asked for (html(), plainText()): a page whose
    /// derivation follows every slider tick builds it only while the pane is open (closed, it cost a
    /// gpt3-175b batch tick 6 %, docs/benchmarks.md). `make` must hold what it needs (copies).
    void setHtmlSource(std::function<QString()> make);
    QString html() const;
    /// How many times a source given to setHtmlSource was made into text: the work-count guard's.
    int madeCount() const { return m_made; }
    /// Whether a source is waiting to be made (given to setHtmlSource and not yet shown or asked for).
    bool sourcePending() const { return static_cast<bool>(m_make); }
    /// The text as shown, without markup (what tests read).
    QString plainText() const;
    bool isExpanded() const;
    void setExpanded(bool expanded);

    QToolButton* toggleButton() const { return m_toggle; }
    QTextBrowser* browser() const { return m_browser; }

private:
    void showPending();
    /// Makes the pending source's text, if one is pending.
    void make() const;

    QToolButton* m_toggle;
    QTextBrowser* m_browser;
    mutable QString m_html;
    mutable std::function<QString()> m_make; ///< the text still to be made (setHtmlSource), or empty
    mutable int m_made = 0;
    QString m_shown;      ///< the text the browser holds
    bool m_stale = false; ///< m_html (or m_make's) not yet in the browser
    QTimer* m_refresh;    ///< coalesces a drag's updates while open
};

#pragma once
// The collapsible "How is this computed?" pane under each page: a toggle button and a text browser
// holding the page's derivation. The page decides the text; the pane only shows it.
#include <QWidget>

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
    QString html() const { return m_html; }
    /// The text as shown, without markup (what tests read).
    QString plainText() const;
    bool isExpanded() const;
    void setExpanded(bool expanded);

    QToolButton* toggleButton() const { return m_toggle; }
    QTextBrowser* browser() const { return m_browser; }

private:
    void showPending();

    QToolButton* m_toggle;
    QTextBrowser* m_browser;
    QString m_html;
    bool m_stale = false; ///< m_html not yet in the browser
    QTimer* m_refresh;    ///< coalesces a drag's updates while open
};

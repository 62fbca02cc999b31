// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A refused entry's message, drawn over whatever lies under its field rather than in a row of the layout:
// showing or clearing it moves nothing (the controls below a field jumped down while it was shown). It
// lives in the field's panel (the content of the scroll area around it, else the window), follows the
// field when the layout or the panel moves it, and wraps to the panel's width.
#include <QLabel>
#include <QList>
#include <QPointer>

class ErrorOverlay : public QLabel {
    Q_OBJECT
public:
    /// The message of `anchor` (a field), shown under it.
    explicit ErrorOverlay(QWidget* anchor);

    void showMessage(const QString& message);
    void clearMessage();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The widget the message is drawn in: the content of the nearest scroll area, else the window.
    QWidget* host() const;
    /// Under the anchor, as wide as it (or wider, up to the host's edge), as tall as the text needs.
    void place();
    void watchAncestors(QWidget* host);

    QWidget* m_anchor;
    QList<QPointer<QWidget>> m_watched;
};

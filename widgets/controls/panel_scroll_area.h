// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A page's control panel: it scrolls down when the window is too short, never sideways. Its minimum
// width follows its content's, so a larger font (presentation mode) widens the panel instead of hiding
// the ends of its rows behind a horizontal scroll bar.
#include <QScrollArea>

class PanelScrollArea : public QScrollArea {
    Q_OBJECT
public:
    /// Shows `content`, resized to the panel's width.
    explicit PanelScrollArea(QWidget* content, QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

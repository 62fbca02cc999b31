// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A message line whose room is kept while it is empty: it asks its layout for `lines` lines of its font
// whether or not a message is shown, so a message appearing or going moves nothing under it. A message
// longer than that at the label's width still gets every line it needs (then what is under it moves).
#include <QLabel>

class ReservedMessageLabel : public QLabel {
    Q_OBJECT
public:
    explicit ReservedMessageLabel(int lines, QWidget* parent = nullptr);

    /// The reserved lines of the present font, margins and frame included.
    int reservedHeight() const;

    /// The reserved height, or the message's lines at the label's present width when it needs more.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The height asked for at `width`.
    int heightAt(int width) const;

    int m_lines;
};

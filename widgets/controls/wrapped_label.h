// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A label whose text breaks into lines and which asks its layout for every line it needs at the width it
// has. A plain word-wrapped QLabel guesses its height at a nominal width, and a splitter (which knows no
// height-for-width) then hands it less: the lines it lacked came out of the chart above it, which drew
// with its axis title cut (the Benchmarks page in presentation mode at 1280×720, issue 35).
#include <QLabel>

class WrappedLabel : public QLabel {
    Q_OBJECT
public:
    explicit WrappedLabel(QWidget* parent = nullptr);

    /// At least the height its lines take at the label's present width.
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A column of controls that asks for the height its rows take at the width it has, wrapped lines
// included. A splitter or a scroll area above it knows no height-for-width: it hands the column its
// minimum, which counts a wrapped label as one line, and the column's layout squeezed its rows under
// their lines (the Benchmarks page's fp16 warning, ten lines in presentation type, drew six).
#include <QWidget>

class WrappingColumn : public QWidget {
    Q_OBJECT
public:
    explicit WrappingColumn(QWidget* parent = nullptr);

    /// The height of the rows at the column's present width (its layout's height for that width).
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The layout's height at `width`, or 0 without a layout that has a height for its width.
    int heightAt(int width) const;
};

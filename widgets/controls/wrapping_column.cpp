// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/wrapping_column.h"

#include <QLayout>
#include <QResizeEvent>

#include <algorithm>

WrappingColumn::WrappingColumn(QWidget* parent)
    : QWidget(parent) {}

int WrappingColumn::heightAt(int width) const {
    if (!layout() || !layout()->hasHeightForWidth() || width <= 0)
        return 0;
    return layout()->totalHeightForWidth(width);
}

QSize WrappingColumn::minimumSizeHint() const {
    const QSize least = QWidget::minimumSizeHint();
    return {least.width(), std::max(least.height(), heightAt(width()))};
}

QSize WrappingColumn::sizeHint() const {
    const QSize hint = QWidget::sizeHint();
    return {hint.width(), std::max(hint.height(), heightAt(width()))};
}

// The height depends on the width alone, so asking again never changes the width it was computed for:
// one more layout pass settles it.
void WrappingColumn::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (heightAt(event->size().width()) != heightAt(event->oldSize().width()))
        updateGeometry();
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/wrapped_label.h"

#include <QResizeEvent>

#include <algorithm>

WrappedLabel::WrappedLabel(QWidget* parent)
    : QLabel(parent) {
    setWordWrap(true);
}

QSize WrappedLabel::minimumSizeHint() const {
    QSize least = QLabel::minimumSizeHint();
    if (width() > 0 && !text().isEmpty())
        least.setHeight(std::max(least.height(), heightForWidth(width())));
    return least;
}

// The height depends on the width alone, so asking again never changes the width it was computed for:
// one more layout pass settles it.
void WrappedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    if (heightForWidth(event->size().width()) != heightForWidth(event->oldSize().width()))
        updateGeometry();
}

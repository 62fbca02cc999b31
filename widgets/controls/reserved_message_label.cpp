// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/reserved_message_label.h"

#include <QFontMetrics>
#include <QResizeEvent>

#include <algorithm>

ReservedMessageLabel::ReservedMessageLabel(int lines, QWidget* parent)
    : QLabel(parent)
    , m_lines(std::max(1, lines)) {
    setWordWrap(true);
}

// Follows the font as set (presentation mode, the tour's enlarged answer): QLabel asks its layout again
// on a font change, and these hints are read then.
int ReservedMessageLabel::reservedHeight() const {
    const QFontMetrics metrics(font());
    return (m_lines * metrics.lineSpacing()) + (2 * (margin() + frameWidth()));
}

int ReservedMessageLabel::heightAt(int width) const {
    if (text().isEmpty() || width <= 0)
        return reservedHeight();
    return std::max(QLabel::heightForWidth(width), reservedHeight());
}

int ReservedMessageLabel::heightForWidth(int width) const {
    return heightAt(width);
}

// A word-wrapped QLabel's own hint is its text broken at a nominal narrow width (six lines of the Tensor
// page's "view size is not compatible …" where two fit), and a form layout takes that height: the height
// is the one the lines take at the width the label has.
QSize ReservedMessageLabel::sizeHint() const {
    return {QLabel::sizeHint().width(), heightAt(width())};
}

QSize ReservedMessageLabel::minimumSizeHint() const {
    return {QLabel::minimumSizeHint().width(), heightAt(width())};
}

// The height depends on the width alone, so asking again never changes the width it was computed for:
// one more layout pass settles it.
void ReservedMessageLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    if (heightAt(event->size().width()) != heightAt(event->oldSize().width()))
        updateGeometry();
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/bit_field_view.h"

#include <QMouseEvent>
#include <QPainter>

namespace {

// Same cell width in every row, so that fp8's 8 cells read as a quarter of fp32's 32.
constexpr double kMaxCellWidth = 22.0;

// Hues people know from float diagrams: sign red, exponent green, mantissa blue. A set bit is drawn
// saturated, a clear bit pale, so the pattern reads at a glance; the digit is drawn as well.
QColor partColour(BitFieldGeometry::Part part, bool set) {
    QColor colour;
    switch (part) {
    case BitFieldGeometry::Part::sign:
        colour = QColor(0xc0, 0x39, 0x2b);
        break;
    case BitFieldGeometry::Part::exponent:
        colour = QColor(0x27, 0xae, 0x60);
        break;
    case BitFieldGeometry::Part::mantissa:
        colour = QColor(0x29, 0x80, 0xb9);
        break;
    }
    if (!set)
        colour.setAlpha(55);
    return colour;
}

} // namespace

BitFieldView::BitFieldView(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click a bit to flip it"));
}

void BitFieldView::setFieldWidths(int exponentBits, int mantissaBits) {
    m_exponentBits = exponentBits;
    m_mantissaBits = mantissaBits;
    updateGeometry();
    update();
}

void BitFieldView::setBits(std::uint32_t bits) {
    const int total = totalBits();
    m_bits = total >= 32 ? bits : bits & ((std::uint32_t{1} << total) - 1u);
    update();
}

BitFieldGeometry BitFieldView::geometry() const {
    return BitFieldGeometry::layout(m_exponentBits, m_mantissaBits, QSizeF(width(), height()), 6.0,
                                    kMaxCellWidth);
}

QSize BitFieldView::sizeHint() const {
    return {totalBits() * int(kMaxCellWidth) + 12, 24};
}

// 8 px a cell at the least (the digit shrinks with its cell): fp32's 32 cells beside bf16's exact value
// (1.0011717677116394e-08, the lecture's tour at 1e-8) keep the page within a 1024×768 projector in
// presentation mode's type.
QSize BitFieldView::minimumSizeHint() const {
    return {totalBits() * 8 + 12, 20};
}

void BitFieldView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const BitFieldGeometry g = geometry();
    QFont font = painter.font();
    font.setPixelSize(
        std::max(8, std::min(height() - 8, int(g.cells.empty() ? 12 : g.cells.front().rect.width() - 3))));
    painter.setFont(font);
    for (const BitFieldGeometry::Cell& cell : g.cells) {
        const bool set = (m_bits >> cell.bit) & 1u;
        painter.setPen(Qt::NoPen);
        painter.setBrush(partColour(cell.part, set));
        painter.drawRoundedRect(cell.rect, 2, 2);
        painter.setPen(set ? QColor(Qt::white) : palette().color(QPalette::WindowText));
        painter.drawText(cell.rect, Qt::AlignCenter, set ? QStringLiteral("1") : QStringLiteral("0"));
    }
}

void BitFieldView::mousePressEvent(QMouseEvent* event) {
    const int bit = geometry().bitAt(event->position());
    if (event->button() != Qt::LeftButton || bit < 0) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_bits ^= std::uint32_t{1} << bit;
    update();
    emit bitsEdited(m_bits);
}

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A float's bit pattern as coloured cells: sign, exponent and mantissa. Clicking a cell flips that bit
// and emits bitsEdited with the new pattern; the owner decides what it means and calls setBits.
#include "widgets/controls/bit_field_geometry.h"

#include <QWidget>

#include <cstdint>

class BitFieldView : public QWidget {
    Q_OBJECT
public:
    explicit BitFieldView(QWidget* parent = nullptr);

    /// The layout: 1 sign bit, then exponentBits, then mantissaBits.
    void setFieldWidths(int exponentBits, int mantissaBits);
    /// Shows `bits` (low 1 + exponentBits + mantissaBits bits) without emitting bitsEdited.
    void setBits(std::uint32_t bits);
    std::uint32_t bits() const { return m_bits; }
    int totalBits() const { return 1 + m_exponentBits + m_mantissaBits; }
    /// The cells as currently laid out (for hit-testing and tests).
    BitFieldGeometry geometry() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The user flipped one bit; `bits` is the whole new pattern.
    void bitsEdited(std::uint32_t bits);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    int m_exponentBits = 8;
    int m_mantissaBits = 23;
    std::uint32_t m_bits = 0;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where each bit of a float's pattern is drawn in a BitFieldView, and which bit a point hits. Plain
// data, computed from the layout and a size, so it is tested without a window.
#include <QRectF>
#include <QSizeF>

#include <vector>

struct BitFieldGeometry {
    enum class Part { sign, exponent, mantissa };
    struct Cell {
        int bit = 0; ///< bit index in the pattern: totalBits − 1 (the sign) … 0 (the last mantissa bit)
        Part part = Part::mantissa;
        QRectF rect;
    };

    /// Cells left to right (most significant bit first), equal widths, with `groupGap` pixels between
    /// the sign, exponent and mantissa groups; the whole row is fitted into `size`, left-aligned, with
    /// cells no wider than `maxCellWidth` (0: no limit) so that rows of different formats line up.
    static BitFieldGeometry layout(int exponentBits, int mantissaBits, QSizeF size, double groupGap = 6.0,
                                   double maxCellWidth = 0.0);

    /// The bit under `point`, or −1 between cells and outside.
    int bitAt(QPointF point) const;
    /// The cell drawing `bit`, or nullptr.
    const Cell* cellFor(int bit) const;

    std::vector<Cell> cells;
};

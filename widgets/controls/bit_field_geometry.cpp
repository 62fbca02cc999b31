// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/bit_field_geometry.h"

#include <algorithm>

BitFieldGeometry BitFieldGeometry::layout(int exponentBits, int mantissaBits, QSizeF size, double groupGap,
                                          double maxCellWidth) {
    BitFieldGeometry g;
    const int total = 1 + exponentBits + mantissaBits;
    const int gaps = mantissaBits > 0 ? 2 : 1;
    double cellWidth = std::max(1.0, (size.width() - gaps * groupGap) / total);
    if (maxCellWidth > 0)
        cellWidth = std::min(cellWidth, maxCellWidth);
    const double spacing = std::min(2.0, cellWidth / 6); // a hairline between neighbouring cells
    double x = 0;
    for (int i = 0; i < total; ++i) {
        const int bit = total - 1 - i;
        Cell cell;
        cell.bit = bit;
        cell.part = i == 0 ? Part::sign : i <= exponentBits ? Part::exponent : Part::mantissa;
        if (i == 1 || i == 1 + exponentBits)
            x += groupGap;
        cell.rect = QRectF(x + spacing / 2, 0, cellWidth - spacing, size.height());
        g.cells.push_back(cell);
        x += cellWidth;
    }
    return g;
}

int BitFieldGeometry::bitAt(QPointF point) const {
    for (const Cell& cell : cells)
        if (cell.rect.contains(point))
            return cell.bit;
    return -1;
}

const BitFieldGeometry::Cell* BitFieldGeometry::cellFor(int bit) const {
    for (const Cell& cell : cells)
        if (cell.bit == bit)
            return &cell;
    return nullptr;
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/stride_view_geometry.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace {

QString sliceLabel(const std::vector<int64_t>& leading, std::size_t trailingDims) {
    QStringList parts;
    for (int64_t i : leading)
        parts << QString::number(i);
    for (std::size_t d = 0; d < trailingDims; ++d)
        parts << QStringLiteral(":");
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

StrideViewGeometry StrideViewGeometry::compute(const std::vector<StorageStripSpec>& strips,
                                               const napkin::TensorLayout& t, double width,
                                               const StrideViewText* text) {
    StrideViewGeometry g;
    const double usable = std::max(width - 2 * kMargin, kMinCell);
    // A label's height: the fixed line, or the lines its text needs at the usable width.
    const auto labelHeight = [&](const QString& label) {
        return text && text->height ? std::max(kLabelHeight, std::ceil(text->height(label, usable)))
                                    : kLabelHeight;
    };
    // One cell size for strips and grid so that a storage cell and a tensor cell look alike.
    int64_t widest = 1;
    for (const StorageStripSpec& s : strips)
        widest = std::max(widest, std::min(s.elements, kMaxStripCells));
    g.cell = std::clamp(std::floor(usable / static_cast<double>(widest)), kMinCell, kMaxCell);

    double y = kMargin;
    for (const StorageStripSpec& spec : strips) {
        Strip strip;
        strip.spec = spec;
        const std::size_t k = g.strips.size();
        const double stripLabel =
            labelHeight(text && k < text->stripLabels.size() ? text->stripLabels[k] : QString());
        strip.labelRect = QRectF(kMargin, y, usable, stripLabel);
        y += stripLabel;
        strip.shownElements = std::min(spec.elements, kMaxStripCells);
        strip.cellsPerRow = std::max(1, static_cast<int>(usable / g.cell));
        const int64_t rows =
            std::max<int64_t>(1, (strip.shownElements + strip.cellsPerRow - 1) / strip.cellsPerRow);
        const double cellsWidth =
            g.cell * static_cast<double>(std::min<int64_t>(strip.shownElements, strip.cellsPerRow));
        strip.cellsRect = QRectF(kMargin, y, cellsWidth, g.cell * static_cast<double>(rows));
        y += strip.cellsRect.height() + kGap;
        g.strips.push_back(strip);
    }

    const double gridLabel = labelHeight(text ? text->gridLabel : QString());
    g.gridLabelRect = QRectF(kMargin, y, usable, gridLabel);
    y += gridLabel;

    // The last two dimensions form a 2-D slice; the leading ones enumerate slices.
    const int n = t.dim();
    const int64_t rows = n >= 2 ? t.shape[n - 2] : 1;
    const int64_t cols = n >= 1 ? t.shape[n - 1] : 1;
    const std::vector<int64_t> leadShape(t.shape.begin(), t.shape.begin() + std::max(0, n - 2));
    int64_t sliceCount = 1;
    for (int64_t s : leadShape)
        sliceCount *= s;
    g.gridCutOff = t.numel() > kMaxGridCells;
    if (g.gridCutOff || t.numel() == 0) {
        g.size = QSizeF(width, y + kMargin);
        return g;
    }

    const double sliceW = g.cell * static_cast<double>(cols);
    const double sliceH = g.cell * static_cast<double>(rows);
    const bool labelled = n > 2;
    // A slice's label on one line over it: as high as a line, as wide as its text ("[0, 0, 0, 0, :, :]").
    const double sliceLabelHeight = labelled ? labelHeight(QStringLiteral("[")) : 0;
    const double sliceLabelWidth =
        labelled && text && text->lineWidth
            ? std::ceil(text->lineWidth(sliceLabel(std::vector<int64_t>(leadShape.size(), 0), 2))) + 4
            : 60.0;
    const double sliceStep = std::max(sliceW, sliceLabelWidth);
    double x = kMargin;
    double rowTop = y;
    std::vector<int64_t> lead(leadShape.size(), 0);
    for (int64_t s = 0; s < sliceCount; ++s) {
        if (x > kMargin && x + sliceStep > kMargin + usable) { // wrap to the next row of slices
            x = kMargin;
            rowTop += sliceH + sliceLabelHeight + kGap;
        }
        Slice slice;
        slice.label = labelled ? sliceLabel(lead, 2) : QString();
        slice.labelRect = QRectF(x, rowTop, sliceStep, sliceLabelHeight);
        slice.rect = QRectF(x, rowTop + slice.labelRect.height(), sliceW, sliceH);
        for (int64_t r = 0; r < rows; ++r) {
            for (int64_t c = 0; c < cols; ++c) {
                GridCell cell;
                cell.index = lead;
                if (n >= 2)
                    cell.index.push_back(r);
                if (n >= 1)
                    cell.index.push_back(c);
                cell.rect = QRectF(slice.rect.left() + g.cell * static_cast<double>(c),
                                   slice.rect.top() + g.cell * static_cast<double>(r), g.cell, g.cell);
                cell.storageOffset = napkin::storageOffsetOf(t, cell.index);
                g.gridCells.push_back(std::move(cell));
            }
        }
        g.slices.push_back(slice);
        x += sliceStep + kGap;
        for (int d = static_cast<int>(lead.size()) - 1; d >= 0; --d) { // next slice, last index fastest
            if (++lead[d] < leadShape[d])
                break;
            lead[d] = 0;
        }
    }
    const double bottom = rowTop + sliceH + sliceLabelHeight;
    g.size = QSizeF(width, bottom + kMargin);
    return g;
}

std::optional<std::size_t> StrideViewGeometry::gridCellAt(QPointF point) const {
    for (std::size_t i = 0; i < gridCells.size(); ++i)
        if (gridCells[i].rect.contains(point))
            return i;
    return std::nullopt;
}

std::optional<QRectF> StrideViewGeometry::stripCellRect(int storageId, int64_t storageIndex) const {
    for (const Strip& s : strips) {
        if (s.spec.storageId != storageId)
            continue;
        if (storageIndex < 0 || storageIndex >= s.shownElements)
            return std::nullopt;
        const int64_t row = storageIndex / s.cellsPerRow;
        const int64_t col = storageIndex % s.cellsPerRow;
        return QRectF(s.cellsRect.left() + cell * static_cast<double>(col),
                      s.cellsRect.top() + cell * static_cast<double>(row), cell, cell);
    }
    return std::nullopt;
}

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the stride view draws things and what is under the mouse: storage strips of numbered
// cells on top, the current tensor below as a grid (beyond 2-D, a row of 2-D slices). A plain
// struct so that layout and hit-testing are tested without a window.
#include "engine/tensor/tensor_layout.h"

#include <QRectF>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

/// One storage to draw as a strip of cells: x's own storage or a copy made along the chain.
struct StorageStripSpec {
    int storageId = 0;
    int64_t elements = 0;
    int64_t bytes = 0;
    int createdAtStep = 0;      ///< 0 for x; the step whose copy allocated it
    std::vector<double> values; ///< the number stored in each cell; empty: show the cell's index
};

/// The view's labels as it words them and their sizes in its font: the layout gives each label the lines it
/// needs at the width it has (presentation mode's type cut "… allocated and copied" and the slices' "[0, 0,
/// :, :]").
struct StrideViewText {
    std::vector<QString> stripLabels;                     ///< one per strip, in order
    QString gridLabel;                                    ///< the tensor's line
    std::function<double(const QString&)> lineWidth;      ///< one line's width
    std::function<double(const QString&, double)> height; ///< the text broken at words to a width: its height
};

struct StrideViewGeometry {
    static constexpr double kMargin = 8;
    static constexpr double kMaxCell = 32;
    static constexpr double kMinCell = 22; ///< below this, long strips wrap rather than shrink
    static constexpr double kLabelHeight = 18;
    static constexpr double kGap = 14;
    static constexpr int64_t kMaxStripCells = 512; ///< storage cells drawn per strip
    static constexpr int64_t kMaxGridCells = 1024; ///< tensor elements drawn

    struct Strip {
        StorageStripSpec spec;
        QRectF labelRect;
        QRectF cellsRect; ///< bounding box of the drawn cells
        int cellsPerRow = 1;
        int64_t shownElements = 0; ///< < spec.elements when the strip is cut off
    };
    struct Slice {
        QRectF rect; ///< the cells of one 2-D slice
        QRectF labelRect;
        QString label; ///< "[0, 1, :, :]"; empty for tensors up to 2-D
    };
    struct GridCell {
        QRectF rect;
        std::vector<int64_t> index; ///< multi-index into the tensor
        int64_t storageOffset = 0;  ///< offset + Σ index·stride
    };

    double cell = kMaxCell;
    std::vector<Strip> strips;
    std::vector<Slice> slices;
    std::vector<GridCell> gridCells; ///< row-major order of the tensor
    bool gridCutOff = false;         ///< the tensor has more than kMaxGridCells elements
    QRectF gridLabelRect;
    QSizeF size; ///< the area all of the above needs

    /// Lays out `strips` and `tensor` in a widget `width` pixels wide; labels kLabelHeight high, or as high
    /// and wide as `text` says they need.
    static StrideViewGeometry compute(const std::vector<StorageStripSpec>& strips,
                                      const napkin::TensorLayout& tensor, double width,
                                      const StrideViewText* text = nullptr);

    /// The grid cell under `point`, as an index into gridCells.
    std::optional<std::size_t> gridCellAt(QPointF point) const;
    /// The rectangle of storage element `storageIndex` in the strip of `storageId`, if drawn.
    std::optional<QRectF> stripCellRect(int storageId, int64_t storageIndex) const;
};

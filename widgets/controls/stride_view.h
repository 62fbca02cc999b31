// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Paints storage as strips of cells (the numbers stored) and the current tensor as a grid of its
// element values; hovering an element highlights the storage cell it reads and shows
// "(1, 2) → 1·4 + 2·1 = 6". Layout and hit-testing live in StrideViewGeometry.
#include "widgets/controls/stride_view_geometry.h"

#include <QWidget>

#include <optional>

class StrideView : public QWidget {
    Q_OBJECT
public:
    explicit StrideView(QWidget* parent = nullptr);

    /// The storages to draw (x's and any copies so far) and the tensor shown as a grid.
    void setTensor(const std::vector<StorageStripSpec>& strips, const napkin::TensorLayout& tensor);
    /// Highlights element `index` as if hovered (also used by tests and screenshots); {} clears.
    void setHoveredIndex(const std::vector<int64_t>& index);

    /// "(1, 2) → 1·4 + 2·1 = 6": the offset arithmetic for one element.
    static QString offsetFormula(const napkin::TensorLayout& tensor, const std::vector<int64_t>& index);

    const StrideViewGeometry& geometry() const { return geometry_; }
    /// The labels as drawn (the strips', the tensor's) and their sizes in the view's font.
    StrideViewText labels() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

signals:
    /// The formula for the element under the mouse, or an empty string when none.
    void hoveredFormulaChanged(const QString& formula);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void relayout();
    QString stripLabel(const StorageStripSpec& spec) const;
    QString gridLabel() const;
    void setHovered(std::optional<std::size_t> cell);
    QColor storageColor(int storageId, bool strong) const;

    std::vector<StorageStripSpec> strips_;
    napkin::TensorLayout tensor_;
    StrideViewGeometry geometry_;
    std::optional<std::size_t> hovered_;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/stride_view.h"

#include "widgets/text/engine_text.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <set>

namespace {

// The number stored in a storage cell (x's storage holds 0, 1, 2, ...; a copy holds what was copied).
QString storedValueText(const StorageStripSpec& spec, int64_t cell) {
    if (cell < 0 || cell >= static_cast<int64_t>(spec.values.size()))
        return QString::number(cell);
    return QString::number(spec.values[static_cast<std::size_t>(cell)]);
}

} // namespace

StrideView::StrideView(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void StrideView::setTensor(const std::vector<StorageStripSpec>& strips, const napkin::TensorLayout& tensor) {
    strips_ = strips;
    tensor_ = tensor;
    hovered_.reset();
    relayout();
    emit hoveredFormulaChanged(QString());
}

void StrideView::setHoveredIndex(const std::vector<int64_t>& index) {
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < geometry_.gridCells.size(); ++i)
        if (geometry_.gridCells[i].index == index)
            found = i;
    setHovered(found);
}

QString StrideView::offsetFormula(const napkin::TensorLayout& tensor, const std::vector<int64_t>& index) {
    return tupleText(index) + QStringLiteral(" → ") +
           QString::fromStdString(napkin::storageOffsetFormula(tensor, index));
}

QSize StrideView::sizeHint() const {
    return QSize(640, heightForWidth(640));
}

QSize StrideView::minimumSizeHint() const {
    return QSize(200, 80);
}

int StrideView::heightForWidth(int width) const {
    const StrideViewText text = labels();
    return static_cast<int>(StrideViewGeometry::compute(strips_, tensor_, width, &text).size.height());
}

QString StrideView::stripLabel(const StorageStripSpec& spec) const {
    const QString size = bytesText(static_cast<double>(spec.bytes));
    QString label = tr("storage #%1 · %2 elements · %3").arg(spec.storageId).arg(spec.elements).arg(size);
    label += spec.createdAtStep == 0
                 ? tr(" — x's storage")
                 : tr(" — copy made at step %1: %2 allocated and copied").arg(spec.createdAtStep).arg(size);
    if (const int64_t shown = std::min(spec.elements, StrideViewGeometry::kMaxStripCells);
        shown < spec.elements)
        label += tr(" (first %1 shown)").arg(shown);
    return label;
}

QString StrideView::gridLabel() const {
    QString label = tr("tensor: shape %1 · stride %2 · offset %3")
                        .arg(tupleText(tensor_.shape), tupleText(tensor_.stride))
                        .arg(tensor_.offset);
    if (tensor_.numel() > StrideViewGeometry::kMaxGridCells)
        label += tr(" — %1 elements, too many to draw").arg(tensor_.numel());
    else if (tensor_.numel() == 0)
        label += tr(" — no elements");
    return label;
}

// The labels in the view's font, bold where the strip is the tensor's own storage, as paintEvent draws them.
StrideViewText StrideView::labels() const {
    StrideViewText text;
    for (const StorageStripSpec& spec : strips_)
        text.stripLabels.push_back(stripLabel(spec));
    text.gridLabel = gridLabel();
    QFont bold = font();
    bold.setBold(true);
    const QFontMetricsF metrics(bold); // bold is the wider: room for either
    text.lineWidth = [metrics](const QString& line) { return metrics.horizontalAdvance(line); };
    text.height = [metrics](const QString& label, double width) {
        return metrics.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, label).height() + 2;
    };
    return text;
}

void StrideView::relayout() {
    const StrideViewText text = labels();
    geometry_ = StrideViewGeometry::compute(strips_, tensor_, width(), &text);
    setMinimumHeight(static_cast<int>(geometry_.size.height()));
    updateGeometry();
    update();
}

void StrideView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();
}

// Presentation mode's type: the labels need more lines and the slices wider labels.
void StrideView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        relayout();
}

void StrideView::setHovered(std::optional<std::size_t> cell) {
    if (cell == hovered_)
        return;
    hovered_ = cell;
    update();
    emit hoveredFormulaChanged(cell ? offsetFormula(tensor_, geometry_.gridCells[*cell].index) : QString());
}

void StrideView::mouseMoveEvent(QMouseEvent* event) {
    setHovered(geometry_.gridCellAt(event->position()));
}

void StrideView::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    setHovered(std::nullopt);
}

QColor StrideView::storageColor(int storageId, bool strong) const {
    // Well-separated hues per storage: x's storage blue, copies orange, green, purple, ...
    static const int kHues[] = {210, 30, 130, 280, 0, 60};
    const int hue = kHues[static_cast<std::size_t>(storageId) % std::size(kHues)];
    return QColor::fromHsv(hue, strong ? 150 : 45, strong ? 225 : 250);
}

void StrideView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    const QColor text = pal.color(QPalette::Text);
    const QColor cellText(Qt::black); // cells have light fills in every theme
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * (geometry_.cell < 24 ? 0.7 : 0.85)));

    // Which storage cells the current tensor reads (and how often: expanded tensors reuse cells).
    std::set<int64_t> touched;
    for (const auto& c : geometry_.gridCells)
        touched.insert(c.storageOffset);

    for (const StrideViewGeometry::Strip& strip : geometry_.strips) {
        const bool current = strip.spec.storageId == tensor_.storageId;
        p.setPen(text);
        QFont bold = font();
        bold.setBold(current);
        p.setFont(bold);
        p.drawText(strip.labelRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
                   stripLabel(strip.spec));
        p.setFont(small);
        for (int64_t i = 0; i < strip.shownElements; ++i) {
            const QRectF r = *geometry_.stripCellRect(strip.spec.storageId, i);
            const bool used = current && touched.count(i);
            p.fillRect(r, storageColor(strip.spec.storageId, used));
            p.setPen(pal.color(QPalette::Mid));
            p.drawRect(r);
            p.setPen(cellText);
            p.drawText(r, Qt::AlignCenter, storedValueText(strip.spec, i));
        }
    }

    p.setFont(font());
    p.setPen(text);
    QString tensorLine = gridLabel();
    // The arithmetic for the hovered element, after the line where it fits in the lines laid out for it
    // (the page shows it under the step's details too): a hover never moves the grid.
    if (hovered_) {
        const QString withFormula = tensorLine + QStringLiteral("   ·   ") +
                                    offsetFormula(tensor_, geometry_.gridCells[*hovered_].index);
        const QRectF needed = QFontMetricsF(font()).boundingRect(
            QRectF(0, 0, geometry_.gridLabelRect.width(), 1e6), Qt::TextWordWrap, withFormula);
        if (needed.height() <= geometry_.gridLabelRect.height())
            tensorLine = withFormula;
    }
    p.drawText(geometry_.gridLabelRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, tensorLine);

    // Grid cells show the element's value: what PyTorch prints, read from the storage the tensor uses.
    const StorageStripSpec* currentStrip = nullptr;
    for (const StrideViewGeometry::Strip& strip : geometry_.strips)
        if (strip.spec.storageId == tensor_.storageId)
            currentStrip = &strip.spec;
    for (const auto& slice : geometry_.slices)
        if (!slice.label.isEmpty())
            p.drawText(slice.labelRect, Qt::AlignLeft | Qt::AlignVCenter, slice.label);
    p.setFont(small);
    for (const auto& c : geometry_.gridCells) {
        p.fillRect(c.rect, storageColor(tensor_.storageId, true));
        p.setPen(pal.color(QPalette::Mid));
        p.drawRect(c.rect);
        p.setPen(cellText);
        p.drawText(c.rect, Qt::AlignCenter,
                   currentStrip ? storedValueText(*currentStrip, c.storageOffset)
                                : QString::number(c.storageOffset));
    }

    if (hovered_) {
        const auto& c = geometry_.gridCells[*hovered_];
        const QColor accentColor(0xd8, 0x1b, 0x60); // magenta: distinct from every storage hue
        QPen accent(accentColor, 3);
        p.setPen(accent);
        p.setBrush(Qt::NoBrush);
        p.drawRect(c.rect.adjusted(1, 1, -1, -1));
        if (const auto target = geometry_.stripCellRect(tensor_.storageId, c.storageOffset)) {
            p.drawRect(target->adjusted(1, 1, -1, -1));
            p.setRenderHint(QPainter::Antialiasing, true);
            QPen line(accentColor, 1.5, Qt::DashLine);
            p.setPen(line);
            p.drawLine(QPointF(c.rect.center().x(), c.rect.top()),
                       QPointF(target->center().x(), target->bottom()));
        }
    }
}

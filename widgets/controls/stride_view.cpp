#include "widgets/controls/stride_view.h"

#include "engine/numerics/quantity_format.h"
#include "widgets/text/engine_text.h"

#include <QMouseEvent>
#include <QPainter>

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
    return static_cast<int>(StrideViewGeometry::compute(strips_, tensor_, width).size.height());
}

void StrideView::relayout() {
    geometry_ = StrideViewGeometry::compute(strips_, tensor_, width());
    setMinimumHeight(static_cast<int>(geometry_.size.height()));
    updateGeometry();
    update();
}

void StrideView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
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
        QString label =
            tr("storage #%1 · %2 elements · %3")
                .arg(strip.spec.storageId)
                .arg(strip.spec.elements)
                .arg(QString::fromStdString(napkin::formatBytes(static_cast<double>(strip.spec.bytes))));
        label += strip.spec.createdAtStep == 0 ? tr(" — x's storage")
                                               : tr(" — copy made at step %1: %2 allocated and copied")
                                                     .arg(strip.spec.createdAtStep)
                                                     .arg(QString::fromStdString(napkin::formatBytes(
                                                         static_cast<double>(strip.spec.bytes))));
        if (strip.shownElements < strip.spec.elements)
            label += tr(" (first %1 shown)").arg(strip.shownElements);
        p.setPen(text);
        QFont bold = font();
        bold.setBold(current);
        p.setFont(bold);
        p.drawText(strip.labelRect, Qt::AlignLeft | Qt::AlignVCenter, label);
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
    QString gridLabel = tr("tensor: shape %1 · stride %2 · offset %3")
                            .arg(tupleText(tensor_.shape), tupleText(tensor_.stride))
                            .arg(tensor_.offset);
    if (geometry_.gridCutOff)
        gridLabel += tr(" — %1 elements, too many to draw").arg(tensor_.numel());
    else if (tensor_.numel() == 0)
        gridLabel += tr(" — no elements");
    if (hovered_) // the arithmetic for the hovered element, on the same line
        gridLabel += QStringLiteral("   ·   ") + offsetFormula(tensor_, geometry_.gridCells[*hovered_].index);
    p.drawText(geometry_.gridLabelRect, Qt::AlignLeft | Qt::AlignVCenter, gridLabel);

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

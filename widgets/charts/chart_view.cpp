#include "widgets/charts/chart_view.h"

#include "widgets/charts/vector_painter.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace {

constexpr const char* kBase = "napkinBaseWidth";
constexpr const char* kScaled = "napkinScaledWidth";
constexpr const char* kBaseFont = "napkinBaseFont";

// A pen's own width is remembered on `owner`; when the chart has set a new pen since (its width is no
// longer the one we wrote) that new width becomes the base, so scaling never compounds.
QPen scaled(QObject* owner, const char* key, QPen pen, double scale) {
    const QByteArray baseKey = QByteArray(kBase) + key;
    const QByteArray writtenKey = QByteArray(kScaled) + key;
    const QVariant written = owner->property(writtenKey.constData());
    double base = pen.widthF();
    if (written.isValid() && written.toDouble() == base)
        base = owner->property(baseKey.constData()).toDouble();
    else
        owner->setProperty(baseKey.constData(), base);
    // Width 0 is Qt's one-pixel cosmetic pen: scale it as if it were 1.
    pen.setWidthF(scale == 1.0 ? base : std::max(1.0, base) * scale);
    owner->setProperty(writtenKey.constData(), pen.widthF());
    return pen;
}

} // namespace

ChartView::ChartView(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumSize(240, 180);
    connect(m_plot, &QCustomPlot::beforeReplot, this, &ChartView::applyLineScale);
    connect(m_plot, &QCustomPlot::afterReplot, this, &ChartView::replotted);
    applyPalette();
}

ChartView::~ChartView() = default;

QPixmap ChartView::render(int width, int height, double scale) const {
    return m_plot->toPixmap(width, height, scale);
}

QByteArray ChartView::renderAs(ImageFormat format, QSize size, double scale) const {
    if (format == ImageFormat::png)
        return pngBytes(render(size.width(), size.height(), scale));
    return paintVector(format, size, QStringLiteral("Napkin chart"), [&](QCPPainter& painter) {
        m_plot->toPainter(&painter, size.width(), size.height());
    });
}

void ChartView::setLineScale(double scale) {
    m_lineScale = scale;
    queueReplot();
}

QStringList ChartView::tickLabels() const {
    return m_plot->yAxis->tickVectorLabels();
}

QColor ChartView::axisTextColor() const {
    return m_plot->xAxis->tickLabelColor();
}

QPen ChartView::axisPen() const {
    return m_plot->xAxis->basePen();
}

std::vector<QPen> ChartView::seriesPens() const {
    std::vector<QPen> pens;
    pens.reserve(static_cast<std::size_t>(m_plot->plottableCount()));
    for (int i = 0; i < m_plot->plottableCount(); ++i)
        pens.push_back(m_plot->plottable(i)->pen());
    return pens;
}

double ChartView::averageReplotMs() const {
    return m_plot->replotTime(true);
}

void ChartView::replotNow() {
    m_plot->replot();
}

void ChartView::queueReplot() {
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::setLegendBelow(bool shown, int columns) {
    QCPLayoutGrid* grid = m_plot->plotLayout();
    if (shown && !grid->hasElement(1, 0)) {
        if (m_plot->axisRect()->insetLayout()->elements(false).contains(m_plot->legend))
            m_plot->axisRect()->insetLayout()->take(m_plot->legend);
        grid->addElement(1, 0, m_plot->legend);
        grid->setRowStretchFactor(1, 0.001);
    } else if (!shown && grid->hasElement(1, 0)) {
        grid->take(m_plot->legend);
        grid->simplify();
    }
    m_plot->legend->setVisible(shown);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(columns);
    m_plot->legend->setMargins(QMargins(4, 2, 4, 2));
}

void ChartView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyPalette();
        queueReplot();
    }
    QWidget::changeEvent(event);
}

// Background, axes, text and legend follow the palette, so that a dark theme gets light axes and text.
void ChartView::applyPalette() {
    const QPalette& p = palette();
    const QColor text = p.color(QPalette::WindowText);
    m_plot->setBackground(p.brush(QPalette::Base));
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
    }
    m_plot->legend->setBrush(p.brush(QPalette::Base));
    m_plot->legend->setTextColor(text);
    m_plot->legend->setBorderPen(QPen(p.color(QPalette::Mid)));
    applySeriesColors();
}

void ChartView::applyLineScale() {
    const double scale = m_lineScale;
    for (QCPAxis* axis : m_plot->axisRect()->axes()) {
        axis->setBasePen(scaled(axis, "base", axis->basePen(), scale));
        axis->setTickPen(scaled(axis, "tick", axis->tickPen(), scale));
        axis->setSubTickPen(scaled(axis, "subTick", axis->subTickPen(), scale));
        axis->grid()->setPen(scaled(axis->grid(), "grid", axis->grid()->pen(), scale));
        axis->setTickLabelFont(font());
        QFont label = font();
        label.setBold(scale > 1.0);
        axis->setLabelFont(label);
    }
    m_plot->legend->setFont(font());
    // Labels drawn inside the plot grow with the chart's font relative to the application's.
    const double fontRatio = font().pointSizeF() / QApplication::font().pointSizeF();
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(m_plot->item(i));
        if (!text)
            continue;
        if (!text->property(kBaseFont).isValid())
            text->setProperty(kBaseFont, text->font());
        QFont f = text->property(kBaseFont).value<QFont>();
        if (fontRatio > 0 && f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * fontRatio);
        text->setFont(f);
    }
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = m_plot->plottable(i);
        if (p->pen().style() != Qt::NoPen)
            p->setPen(scaled(p, "pen", p->pen(), scale));
    }
}

void setChartLineScale(QWidget& root, double scale) {
    for (ChartView* chart : root.findChildren<ChartView*>())
        chart->setLineScale(scale);
}

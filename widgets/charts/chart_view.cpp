// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/chart_view.h"
#include "widgets/text/measured_text.h"

#include "widgets/charts/captioned_picture.h"
#include "widgets/charts/chart_geometry.h"
#include "widgets/charts/picture_painter.h"
#include "widgets/charts/wheel_to_page.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QEvent>
#include <QFontMetrics>
#include <QPalette>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace {

constexpr const char* kBase = "napkinBaseWidth";
constexpr const char* kScaled = "napkinScaledWidth";
constexpr const char* kBaseFont = "napkinBaseFont";
constexpr const char* kTitle = "napkinAxisTitle";
constexpr const char* kFitted = "napkinAxisTitleFitted";

// A title too long for its axis breaks at spaces into as many lines as it needs, rather than running past
// the chart's edge and being cut ("FLOPs per step (per GP").
QString fittedTitle(const QString& title, const QFont& font, int room) {
    if (measuredText::horizontalAdvance(font, title) <= room)
        return title;
    QStringList lines;
    QString line;
    for (const QString& word : title.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && measuredText::horizontalAdvance(font, longer) > room) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    lines << line;
    return lines.join(QLatin1Char('\n'));
}

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
    applyMinimumSize();
    m_plot->installEventFilter(new WheelToPage(this));
    // A replot asks for a paint with the window's next one rather than painting and flushing the window at
    // once: a tick that replots three charts paints the page once, not three times (a fifth of each
    // replot went to those paints, bench_accounting_page under perf).
    m_plot->setPlottingHint(QCP::phImmediateRefresh, false);
    // First: the replot that starts now is no longer pending; one the handlers below queue again is.
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] { m_replotPending = false; });
    connect(m_plot, &QCustomPlot::beforeReplot, this, &ChartView::applyLineScale);
    connect(m_plot, &QCustomPlot::afterReplot, this, &ChartView::checkTicksAfterReplot);
    connect(m_plot, &QCustomPlot::afterReplot, this, &ChartView::replotted);
    applyPalette();
}

ChartView::~ChartView() = default;

QPixmap ChartView::render(int width, int height, double scale) const {
    const PictureTarget target{
        QSize(width, height), scale, logicalDpiY(), palette().color(QPalette::Base), {}};
    return QPixmap::fromImage(paintImage(
        target, [this, width, height](QCPPainter& painter) { m_plot->toPainter(&painter, width, height); }));
}

PictureCaptions ChartView::captions(bool captioned) const {
    return {captioned ? m_title : QString(), captioned ? m_settings : QString(), font(),
            palette().color(QPalette::Base), palette().color(QPalette::Text)};
}

QRect ChartView::chartRectIn(QSize size, bool captioned) const {
    return ::chartRectIn(size, captions(captioned));
}

// Every format and scale through one path: the chart painted at its logical size on the picture's painter.
QByteArray ChartView::renderAs(ImageFormat format, QSize size, double scale, bool captioned) const {
    return captionedPicture(
        format, {size, scale, logicalDpiY(), {}, {}}, captions(captioned),
        [this](QCPPainter& painter, QSize s) { m_plot->toPainter(&painter, s.width(), s.height()); });
}

void ChartView::setLineScale(double scale) {
    m_lineScale = scale;
    queueReplot();
}

QStringList ChartView::tickLabels() const {
    return m_plot->yAxis->tickVectorLabels();
}

QStringList ChartView::xTickLabels() const {
    return m_plot->xAxis->tickVectorLabels();
}

QStringList ChartView::legendNames() const {
    QStringList names;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(m_plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

QString ChartView::xAxisTitle() const {
    const QCPAxis* axis = m_plot->xAxis;
    const QVariant original = axis->property(kTitle);
    // The title as the chart set it, unless ChartView fitted it (wrapped) since.
    return original.isValid() && axis->label() == axis->property(kFitted).toString() ? original.toString()
                                                                                     : axis->label();
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

double ChartView::topLeavingRoom(double value, double pixels, double factor) const {
    const int height = m_plot->axisRect()->height();
    if (height <= 0 || value <= 0)
        return value * factor;
    // At most 60 % of the axes above the value: the bar itself stays readable.
    const double fraction = std::min(0.6, pixels / height);
    return std::max(value * factor, value / (1.0 - fraction));
}

QString ChartView::fittedText(const QString& text, const QFont& font, int room) {
    QStringList lines;
    for (const QString& line : text.split(QLatin1Char('\n')))
        lines << fittedTitle(line, font, room);
    return lines.join(QLatin1Char('\n'));
}

double ChartView::labelHeight(const QCPItemText& label) {
    const int lines = static_cast<int>(label.text().count(QLatin1Char('\n'))) + 1;
    return QFontMetrics(label.font()).lineSpacing() * lines + label.padding().top() +
           label.padding().bottom();
}

void ChartView::queueReplot() {
    m_replotPending = true;
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
    m_legendColumns = std::max(1, columns);
    // The wrap first: setting the fill order then lays out the entries already there in `columns`.
    m_plot->legend->setWrap(columns);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    m_plot->legend->setMargins(QMargins(4, 2, 4, 2));
}

void ChartView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyPalette();
        applyStalePalette();
        queueReplot();
    }
    if (event->type() == QEvent::FontChange)
        applyMinimumSize();
    QWidget::changeEvent(event);
}

// The chart's minimum is given at the application's font. A larger font (presentation mode) needs more
// height for the same tick labels, titles and legend rows, so the minimum height grows with it and the
// page scrolls instead of squashing the plot until its labels are cut. The width grows only to what a
// tick label, a two-line axis title and a plot need side by side: titles wrap and category labels slant,
// and a projector's 1024 pixels have none to spare.
void ChartView::applyMinimumSize() {
    const double appPoints = QApplication::font().pointSizeF();
    const double ratio = appPoints > 0 ? std::max(1.0, font().pointSizeF() / appPoints) : 1.0;
    // Nor narrower than its legend's widest entry: a splitter dragged (or a control panel widened) that
    // far cut "step: forward, backward, recompute" under the FLOP chart.
    const int width = std::max({m_minimum.width(), m_minimumColumns * QFontMetrics(font()).averageCharWidth(),
                                m_plot->legend->visible() ? legendWidth(*m_plot->legend, 1) + 8 : 0});
    // A legend that dropped columns to keep its names whole takes more rows: the chart asks for their
    // height too, so that its column scrolls rather than the plot shrinking under it.
    m_plot->setMinimumSize(width, qRound(m_minimum.height() * ratio) +
                                      extraLegendHeight(*m_plot->legend, m_legendColumns));
}

void ChartView::setMinimumChartSize(QSize atApplicationFont, int columns) {
    m_minimum = atApplicationFont;
    m_minimumColumns = columns;
    applyMinimumSize();
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
    // Titles are fitted to the room the chart has now; the title as set is remembered on the axis.
    bool refitted = false;
    for (QCPAxis* axis : m_plot->axisRect()->axes()) {
        QString title = axis->label();
        const QVariant original = axis->property(kTitle);
        if (original.isValid() && title == axis->property(kFitted).toString())
            title = original.toString();
        // Centred on its axis, a title has twice the distance from the axis's middle to the nearer edge
        // of the chart (the axes as last laid out; the whole chart before the first layout).
        const bool vertical = axis->orientation() == Qt::Vertical;
        const QRect axes = axis->axisRect()->rect();
        const int extent = vertical ? m_plot->height() : m_plot->width();
        const int centre = axes.isEmpty() ? extent / 2 : (vertical ? axes.center().y() : axes.center().x());
        const int room = 2 * std::min(centre, extent - centre) - 8;
        const QString fitted = fittedTitle(title, axis->labelFont(), room);
        refitted = refitted || fitted != axis->label();
        axis->setProperty(kTitle, title);
        axis->setProperty(kFitted, fitted);
        axis->setLabel(fitted);
    }
    // Fewer legend columns where the entries' names would be cut side by side ("memory bound, does not
    // fit" beside "memory bound" on the decode chart in presentation mode at 1280×720).
    refitted = fitLegendColumns(*m_plot->legend, m_legendColumns, m_plot->width() - 8) || refitted;
    applyMinimumSize(); // its legend's rows and widest entry, as they are now
    // Room at the right end for the last tick label (fitTicks) narrows the axes as well.
    refitted = fitTicks() || refitted;
    // A title that changed its lines (or a legend its rows) changes the margins, and so the room of the
    // others and of the labels over the data: one more replot lays them out with their final lines (once,
    // so that two titles cannot take turns forever).
    if (refitted && !m_refitting) {
        m_refitting = true;
        queueReplot();
    } else {
        m_refitting = false;
    }
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

bool ChartView::fitTicks() {
    constexpr int kMostTicks = 5; // QCustomPlot's default tick count; no chart asks for more
    // Axes not laid out at a real size (a chart filled while its page was hidden: 100×30 gives axes of
    // negative width) place the tick labels anywhere: a right margin fitted to them left the Benchmarks
    // page's plot a few pixels wide, one tick under it, once the page was shown.
    const QRect axes = m_plot->axisRect()->rect();
    if (axes.width() <= 0 || axes.height() <= 0)
        return false;
    m_fittedAxes = axes;
    int overhang = 0;
    for (QCPAxis* axis : m_plot->axisRect()->axes()) {
        fitTickCount(*axis, kMostTicks);
        overhang = std::max(overhang, tickLabelOverhang(*axis));
    }
    // A tick label at the axes' right end reaches past them (half of a centred "100000"): the axes leave it
    // that room, since QCustomPlot leaves out a label the chart's edge would cut.
    QMargins least = m_plot->axisRect()->minimumMargins();
    const int right = overhang > 0 ? overhang + 2 : 0;
    if (least.right() == right)
        return false;
    least.setRight(right);
    m_plot->axisRect()->setMinimumMargins(least);
    return true;
}

// The ticks were fitted to the axes as last laid out; when this replot moved them (a title gained a line,
// the widget was resized) the labels may overlap after all: once more with the new lengths.
// Also when the replot laid the axes out other than they were when the ticks were fitted (a resize replots
// at once, with ticks and margins fitted to the old size): a few replots in a row, as each refit can move
// the axes again; never an endless round.
void ChartView::checkTicksAfterReplot() {
    constexpr int kMostRefits = 3;
    bool crowded = false;
    for (QCPAxis* axis : m_plot->axisRect()->axes())
        crowded = crowded || !crowdedTickLabels(*axis).isEmpty() ||
                  !tickLabelsPastEdges(*axis, m_plot->width()).isEmpty();
    // Moved: laid out at a real size for the first time, or resized by more than a tenth. A tick label a
    // few pixels wider or narrower (a batch edit's "1.5 TB" for "980 GB") moves the axes too, but the ticks
    // fitted before still fit, and a replot more on every such edit cost a slider tick its frame.
    const QRect axes = m_plot->axisRect()->rect();
    const auto changed = [](int now, int fitted) { return std::abs(now - fitted) * 10 > fitted; };
    const bool moved = axes.width() > 0 && axes.height() > 0 &&
                       (m_fittedAxes.isEmpty() || changed(axes.width(), m_fittedAxes.width()) ||
                        changed(axes.height(), m_fittedAxes.height()));
    if ((crowded || moved) && m_tickRefits < kMostRefits) {
        ++m_tickRefits;
        queueReplot();
    } else {
        m_tickRefits = 0;
    }
}

QString chartLibraryVersion() {
    return QStringLiteral("QCustomPlot " QCUSTOMPLOT_VERSION_STR);
}

void setChartLineScale(QWidget& root, double scale) {
    for (ChartView* chart : root.findChildren<ChartView*>())
        chart->setLineScale(scale);
}

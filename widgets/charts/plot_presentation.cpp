#include "widgets/charts/plot_presentation.h"

#include <QApplication>

#include <qcustomplot.h>

namespace {

constexpr const char* kScale = "napkinLineScale";
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

void applyScale(QCustomPlot* plot) {
    const double scale = plot->property(kScale).toDouble();
    for (QCPAxis* axis : plot->axisRect()->axes()) {
        axis->setBasePen(scaled(axis, "base", axis->basePen(), scale));
        axis->setTickPen(scaled(axis, "tick", axis->tickPen(), scale));
        axis->setSubTickPen(scaled(axis, "subTick", axis->subTickPen(), scale));
        axis->grid()->setPen(scaled(axis->grid(), "grid", axis->grid()->pen(), scale));
        axis->setTickLabelFont(plot->font());
        QFont label = plot->font();
        label.setBold(scale > 1.0);
        axis->setLabelFont(label);
    }
    plot->legend->setFont(plot->font());
    // Labels drawn inside the plot grow with the plot's font relative to the application's.
    const double fontRatio = plot->font().pointSizeF() / QApplication::font().pointSizeF();
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(plot->item(i));
        if (!text)
            continue;
        if (!text->property(kBaseFont).isValid())
            text->setProperty(kBaseFont, text->font());
        QFont font = text->property(kBaseFont).value<QFont>();
        if (fontRatio > 0 && font.pointSizeF() > 0)
            font.setPointSizeF(font.pointSizeF() * fontRatio);
        text->setFont(font);
    }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (p->pen().style() != Qt::NoPen)
            p->setPen(scaled(p, "pen", p->pen(), scale));
    }
}

} // namespace

void setPlotLineScale(QWidget& root, double scale) {
    for (QCustomPlot* plot : root.findChildren<QCustomPlot*>()) {
        plot->setProperty(kScale, scale);
        if (!plot->property("napkinScaleHooked").toBool()) {
            plot->setProperty("napkinScaleHooked", true);
            QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { applyScale(plot); });
        }
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

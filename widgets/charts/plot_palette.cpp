#include "widgets/charts/plot_palette.h"

#include <qcustomplot.h>

void applyPaletteToPlot(QCustomPlot& plot, const QPalette& palette) {
    const QColor text = palette.color(QPalette::WindowText);
    plot.setBackground(palette.brush(QPalette::Base));
    for (QCPAxis* axis : {plot.xAxis, plot.yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
    }
    plot.legend->setBrush(palette.brush(QPalette::Base));
    plot.legend->setTextColor(text);
    plot.legend->setBorderPen(QPen(palette.color(QPalette::Mid)));
}

#pragma once
// Colours a QCustomPlot's background, axes, labels and legend from a widget palette, so that every
// chart follows a dark theme the same way. Series colours stay with each chart.
class QCustomPlot;
class QPalette;

void applyPaletteToPlot(QCustomPlot& plot, const QPalette& palette);

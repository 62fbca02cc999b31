#pragma once
// Presentation mode for every chart under a widget: axis, grid and series lines drawn `scale` times
// thicker and axis text in the plot's (inherited) font, applied just before each replot so that a
// chart re-setting its own pens later does not undo it. QCustomPlot stays inside the .cpp.
class QWidget;

/// Sets the line scale (1 = as the chart draws it) of every chart inside `root` and queues a replot.
void setPlotLineScale(QWidget& root, double scale);

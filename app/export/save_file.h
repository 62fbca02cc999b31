// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The app's one way to write a file (QSaveFile: the old file stays whole until the new one is complete),
// and a chart or a page written as the picture its file name asks for (.png, .svg, .pdf).
// Each returns an error message for the user, or an empty string.
#include <QByteArray>
#include <QSize>
#include <QString>

class ChartView;
class QWidget;

QString saveFile(const QString& path, const QByteArray& bytes);
/// The chart at `size` logical pixels (PNG: × `scale` device pixels; SVG, PDF: vectors), with its title
/// and settings line unless `captioned` is false.
QString saveChart(const ChartView& chart, const QString& path, QSize size, double scale = 1.0,
                  bool captioned = true);
/// A whole page (any widget) laid out at `size`; its charts are pictures inside an SVG or PDF. `controls`
/// (the page's input panel), when given, is left out of the picture and given its place back after: a
/// slide shows the charts and the answers, which say the setting themselves. The page's scroll bars are
/// left out too (a slide cannot scroll), and `caption`, when given, is a line under the page: its setup.
/// A page on screen keeps its size.
QString savePage(QWidget& page, const QString& path, QSize size, double scale = 1.0,
                 QWidget* controls = nullptr, const QString& caption = {});

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Export PNG" for the training lessons: asks for a file name, writes the chart (or the whole panel)
// at twice its on-screen resolution through QSaveFile, and says so if that failed.
#include <QString>

class QWidget;
class SeriesChart;

/// Returns the error shown to the user, or an empty string (also when the dialog was cancelled).
QString exportLessonChart(QWidget* parent, SeriesChart& chart, const QString& suggestedName);
QString exportLessonWidget(QWidget* parent, QWidget& widget, const QString& suggestedName);

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where on the pages each tour answer (napkin::tourAnswerFields()) is shown: the widget a tour step brings
// into view and enlarges (LectureTourController), one table for every tour, the lecture's or a file's.
#include <QList>

#include <string_view>

class MainWindow;
class QWidget;

/// The widget of `window`'s pages that shows answer `field`; nullptr for a field no page shows.
QWidget* tourAnswerWidget(const MainWindow& window, std::string_view field);
/// Every widget that gives answer `field` away besides the charts, answers grids and explain panes the
/// tour veils on every page: the widget above, and the cells, labels and error lines that say the same
/// (the formats table's "fp16 0x0000 0 zero", the tensor page's "storage offset 6" and its red error).
QList<QWidget*> tourAnswerBearers(const MainWindow& window, std::string_view field);

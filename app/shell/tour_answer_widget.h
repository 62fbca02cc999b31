#pragma once
// Where on the pages each tour answer (napkin::tourAnswerFields()) is shown: the widget a tour step brings
// into view and enlarges (LectureTourController), one table for every tour, the lecture's or a file's.
#include <string_view>

class MainWindow;
class QWidget;

/// The widget of `window`'s pages that shows answer `field`; nullptr for a field no page shows.
QWidget* tourAnswerWidget(const MainWindow& window, std::string_view field);

#pragma once
// The lecture tour: the lecture's questions in order, each with the page to show, the inputs to apply
// and a caption whose answer is formatted from what the engine computed on that page (never typed in).
// A plain table, so tests can iterate it and the controller only steps through it.
#include <QString>

#include <functional>
#include <vector>

class AccountingPage;
class BenchmarksPage;
class NumberFormatsPage;
class QTabWidget;
class QWidget;
class TensorPage;

/// The pages a step drives: the main window's, or a test's own.
struct TourPages {
    QTabWidget* tabs = nullptr;
    AccountingPage* accounting = nullptr;
    NumberFormatsPage* formats = nullptr;
    TensorPage* tensor = nullptr;
    BenchmarksPage* benchmarks = nullptr;
};

enum class TourPage { accounting, formats, tensor, benchmarks };

struct LectureTourStep {
    QString id;       ///< "napkin-math", "dtypes", ...
    TourPage page;    ///< where the answer is on screen
    QString question; ///< the caption's question, as the lecture asks it
    /// Sets the page's inputs and returns the answer, formatted from the engine's results on the page.
    std::function<QString(const TourPages&)> apply;
};

/// The steps, in the lecture's order.
const std::vector<LectureTourStep>& lectureTourSteps();
/// The widget of `page` in `pages` (nullptr when that page is missing).
QWidget* tourPageWidget(const TourPages& pages, TourPage page);

// Benchmark (not a unit test): one slider tick → engine recompute → the three charts replotted (memory
// bar, FLOPs, memory over one step). Drags the parameter slider over 200 ticks on the offscreen platform
// and prints median and p95.
// Usage: bench_accounting_page [ticks] [preset]   (target: p95 < 16 ms, one frame at 60 Hz)
// The default preset, 70b-15t-1024-h100, drags the parameters slider; any other (llama3-70b, gpt3-175b:
// a timeline of hundreds of events, ...) drags the training-tokens slider instead, so that every tick runs
// the transformer's activation and communication ledgers and its timeline. A shipped config's id
// (deepseek-v3: 61 layers of MLA and 256 experts) sets that model on a fresh page's training and hardware.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/controls/log_slider_field.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int ticks = argc > 1 ? std::max(10, std::atoi(argv[1])) : 200;

    AccountingPage page;
    page.resize(1600, 900);
    page.show();
    const QString presetId = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("70b-15t-1024-h100");
    const Preset* preset = findPreset(presetId);
    if (!preset) {
        std::fprintf(stderr, "bench_accounting_page: unknown preset '%s'; known: %s\n", qPrintable(presetId),
                     qPrintable(presetIdList()));
        return 2;
    }
    page.applyPreset(*preset);
    const bool dense = preset->input.model.kind == napkin::ModelKind::dense;
    QSlider* slider = (dense ? page.controls()->parametersField() : page.controls()->tokensField())->slider();

    bool memoryDone = false, flopsDone = false, timelineDone = false;
    QObject::connect(page.memoryChart(), &MemoryChart::replotted, &page, [&] { memoryDone = true; });
    QObject::connect(page.flopChart(), &FlopChart::replotted, &page, [&] { flopsDone = true; });
    QObject::connect(page.timelineChart(), &MemoryTimelineChart::replotted, &page,
                     [&] { timelineDone = true; });

    auto tick = [&](int position) {
        memoryDone = flopsDone = timelineDone = false;
        QElapsedTimer timer;
        timer.start();
        slider->setValue(position);
        // The replots are queued: let the event loop run them, as it would between two mouse moves.
        while (!(memoryDone && flopsDone && timelineDone))
            QCoreApplication::processEvents(QEventLoop::AllEvents);
        return static_cast<double>(timer.nsecsElapsed()) / 1e6;
    };

    for (int i = 0; i < 20; ++i) // warm-up: fonts, pixmap caches, first layout
        tick(100 + i * 10);
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(ticks));
    const int start = 100, span = LogSliderField::steps - 200;
    for (int i = 0; i < ticks; ++i)
        ms.push_back(tick(start + (i * span) / ticks));

    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) {
        return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))];
    };
    std::printf("%s slider tick (%s) -> memory, FLOP and timeline charts replotted, %lld events, %d ticks, "
                "%dx%d offscreen\n",
                dense ? "parameters" : "tokens", qPrintable(preset->id),
                static_cast<long long>(page.timelineChart()->data().events.size()), ticks, page.width(),
                page.height());
    std::printf("median %.3f ms  p95 %.3f ms  min %.3f ms  max %.3f ms\n", at(0.5), at(0.95), ms.front(),
                ms.back());
    // QCustomPlot's own measure of its last replots (layout + draw), to see where the time goes.
    std::printf("of which QCustomPlot replot (average of recent): memory %.3f ms, flops %.3f ms, timeline "
                "%.3f ms\n",
                page.memoryChart()->averageReplotMs(), page.flopChart()->averageReplotMs(),
                page.timelineChart()->averageReplotMs());
    return 0;
}

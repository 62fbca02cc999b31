// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a unit test): one slider tick → engine recompute → the charts replotted (memory bar,
// FLOPs, memory over one step). Drags a slider over 200 ticks on the offscreen platform and prints median
// and p95. A chart whose data a tick does not change is not replotted, and the tick does not wait for it.
// Usage: bench_accounting_page [ticks] [preset] [batch]   (target: p95 < 8 ms, one frame at 120 Hz)
// The default preset, 70b-15t-1024-h100, drags the parameters slider; any other (llama3-70b, gpt3-175b:
// a timeline of hundreds of events, ...) drags the training-tokens slider instead, which changes the
// training time and none of the charts. A shipped config's id (deepseek-v3: 61 layers of MLA and 256
// experts) sets that model on a fresh page's training and hardware. `batch` types batch sizes 1…64 into
// the batch field instead, one per tick: every chart changes, every tick replots all three.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/controls/log_slider_field.h"
#include "widgets/controls/number_field.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QLabel>
#include <QSlider>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
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
    const bool typeBatch = argc > 3 && std::strcmp(argv[3], "batch") == 0;
    QSlider* slider = (dense ? page.controls()->parametersField() : page.controls()->tokensField())->slider();
    NumberField* batchField = page.controls()->batchField();
    const std::vector<ChartView*> charts{page.memoryChart(), page.flopChart(), page.timelineChart()};
    int replotsDrawn = 0;
    for (ChartView* chart : charts)
        QObject::connect(chart, &ChartView::replotted, &page, [&] { ++replotsDrawn; });

    // The labels whose text a tick changes, and their characters: each is shaped again for its size hints
    // and its paint, a third of the tick at gpt3-175b (docs/benchmarks.md).
    QHash<const QLabel*, QString> texts;
    long long labelsChanged = 0, charsChanged = 0;
    QHash<QString, long long> charsByLabel;
    const auto countChangedLabels = [&] {
        for (const QLabel* label : page.findChildren<QLabel*>()) {
            auto it = texts.find(label);
            if (it != texts.end() && *it == label->text())
                continue;
            if (it != texts.end()) {
                ++labelsChanged;
                charsChanged += label->text().size();
                charsByLabel[label->objectName().isEmpty() ? label->text().left(24) : label->objectName()] +=
                    label->text().size();
            }
            texts.insert(label, label->text());
        }
    };

    std::vector<double> cpuMs; // this thread's CPU time per tick: less sensitive to other processes' load
    const auto threadCpuMs = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
    };
    auto tick = [&](int position) {
        const double cpuStart = threadCpuMs();
        QElapsedTimer timer;
        timer.start();
        if (typeBatch) { // as a user's typed value is committed
            const double batch = 1 + position % 64;
            batchField->setValue(batch);
            emit batchField->valueEdited(batch);
        } else {
            slider->setValue(position);
        }
        // The replots are queued: let the event loop run them, as it would between two mouse moves.
        const auto pending = [&] {
            return std::any_of(charts.begin(), charts.end(),
                               [](const ChartView* c) { return c->replotPending(); });
        };
        while (pending())
            QCoreApplication::processEvents(QEventLoop::AllEvents);
        const double wallMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        cpuMs.push_back(threadCpuMs() - cpuStart);
        countChangedLabels();
        return wallMs;
    };

    for (int i = 0; i < 20; ++i) // warm-up: fonts, pixmap caches, first layout
        tick(100 + i * 10);
    replotsDrawn = 0; // the measured ticks' alone
    labelsChanged = charsChanged = 0;
    charsByLabel.clear();
    cpuMs.clear();
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(ticks));
    const int start = 100, span = LogSliderField::steps - 200;
    for (int i = 0; i < ticks; ++i)
        ms.push_back(tick(start + (i * span) / ticks));

    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) {
        return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))];
    };
    std::printf("%s tick (%s) -> memory, FLOP and timeline charts replotted where changed (%d replots), %lld "
                "events, %d ticks, %dx%d offscreen\n",
                typeBatch ? "batch field"
                : dense   ? "parameters slider"
                          : "tokens slider",
                qPrintable(preset->id), replotsDrawn,
                static_cast<long long>(page.timelineChart()->data().events.size()), ticks, page.width(),
                page.height());
    std::printf("median %.3f ms  p95 %.3f ms  min %.3f ms  max %.3f ms\n", at(0.5), at(0.95), ms.front(),
                ms.back());
    std::sort(cpuMs.begin(), cpuMs.end());
    std::printf("GUI thread CPU per tick: median %.3f ms  p95 %.3f ms\n", cpuMs[cpuMs.size() / 2],
                cpuMs[std::min(cpuMs.size() - 1, cpuMs.size() * 95 / 100)]);
    std::printf("labels whose text changed per tick: %.1f, %.0f characters\n",
                static_cast<double>(labelsChanged) / ticks, static_cast<double>(charsChanged) / ticks);
    if (qEnvironmentVariableIsSet("NAPKIN_BENCH_LABELS")) {
        std::vector<std::pair<long long, QString>> top;
        for (auto it = charsByLabel.begin(); it != charsByLabel.end(); ++it)
            top.emplace_back(it.value(), it.key());
        std::sort(top.rbegin(), top.rend());
        for (const auto& [chars, name] : top)
            std::printf("  %7.1f chars/tick  %s\n", static_cast<double>(chars) / ticks, qPrintable(name));
    }
    // QCustomPlot's own measure of its last replots (layout + draw), to see where the time goes.
    std::printf("of which QCustomPlot replot (average of recent): memory %.3f ms, flops %.3f ms, timeline "
                "%.3f ms\n",
                page.memoryChart()->averageReplotMs(), page.flopChart()->averageReplotMs(),
                page.timelineChart()->averageReplotMs());
    return 0;
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/shell/headless_export.h"

#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/accounting/reserved_line.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/document/scenario_file.h"
#include "app/export/save_file.h"
#include "app/formats/number_formats_page.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/inference/inference_page.h"
#include "app/jobs/task_runner.h"
#include "app/roofline/roofline_page.h"
#include "app/shell/command_line.h"
#include "app/shell/page_command.h"
#include "app/tensor/tensor_page.h"
#include "app/training/training_page.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/charts/roofline_chart.h"

#include "engine/models/model_presets.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("HeadlessExport", text);
}

HeadlessExportResult failed(int code, const QString& error) {
    return {code, error};
}

// The published model (model_presets.h) a setup preset trains, by its id; empty when it is none.
QString modelPresetIdFor(const napkin::ModelSpec& model) {
    for (const napkin::ModelPreset& p : napkin::modelPresets())
        if (p.model == model)
            return QString::fromUtf8(p.id.data(), qsizetype(p.id.size()));
    return {};
}

// Waits until no worker of `page` is busy, their results shown: a page computed off the GUI thread (the
// Training page's lessons) was written before its first result landed, an empty chart over "computing…".
// False when the work outlasts `limit`.
bool finishPageWork(const QObject& page, std::chrono::milliseconds limit) {
    const auto busy = [&page] {
        const QList<TaskRunner*> runners = page.findChildren<TaskRunner*>();
        return std::any_of(runners.begin(), runners.end(), [](const TaskRunner* r) { return r->isBusy(); });
    };
    QTimer tick; // wakes the wait below while a worker has nothing to post yet
    tick.start(50);
    const QDeadlineTimer deadline(limit);
    while (busy()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    QCoreApplication::processEvents(); // the replots the results queued
    return true;
}

} // namespace

void quietSessionNotes() {
    static const QtMessageHandler previous = qInstallMessageHandler(nullptr);
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& context, const QString& message) {
        if (type != QtCriticalMsg && type != QtFatalMsg &&
            (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR")) ||
             message.startsWith(QLatin1String("QStandardPaths: wrong permissions on runtime directory"))))
            return;
        if (previous)
            previous(type, context, message);
        else
            std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
    });
}

HeadlessExportResult runHeadlessExport(const CommandLine& cl) {
    napkin::Scenario scenario;
    if (!cl.scenarioPath.isEmpty()) {
        const ScenarioLoad load = loadScenarioFile(cl.scenarioPath);
        if (!load.ok())
            return failed(2, tr("--scenario: %1").arg(load.error));
        scenario = *load.scenario;
        for (const napkin::GpuSpec& gpu : scenario.gpus.parts) // the GPUs of the user's own it names
            SessionGpuCatalog::instance().add(gpu);
    }
    // Warnings (a device not available here, ...) do not matter for a picture of the page.
    const bool json = cl.exportPath.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
    // A page picture's setup under it, as the window's File ▸ Export current page has it.
    const auto caption = [&cl](const napkin::Scenario& shown, napkin::ScenarioPage page) {
        return cl.caption ? pageCaption(pageCommandLine(shown, page)) : QString();
    };
    QString error;
    if (cl.page == QLatin1String("accounting") || cl.page == QLatin1String("memory") ||
        cl.page == QLatin1String("flops") || cl.page == QLatin1String("timeline")) {
        AccountingPage page;
        if (!cl.scenarioPath.isEmpty())
            page.applyScenario(scenario.accounting);
        else if (!cl.preset.isEmpty())
            page.applyPreset(*findPreset(cl.preset));
        page.reservedLine()->flush(); // the picture as a user sees it once the controls rest
        if (json) {
            const PageDocument document = accountingPageDocument(page.scenario().input);
            if (!document.ok())
                return failed(2, tr("--page accounting: %1").arg(document.error));
            error = saveFile(cl.exportPath, document.json);
        } else if (cl.page == QLatin1String("accounting")) {
            napkin::Scenario shown = scenario;
            shown.accounting = page.scenario();
            error = savePage(page, cl.exportPath, cl.size, cl.scale, page.controlPanel(),
                             caption(shown, napkin::ScenarioPage::accounting));
        } else {
            const ChartView* chart =
                cl.page == QLatin1String("memory")  ? static_cast<const ChartView*>(page.memoryChart())
                : cl.page == QLatin1String("flops") ? static_cast<const ChartView*>(page.flopChart())
                                                    : page.timelineChart();
            error = saveChart(*chart, cl.exportPath, cl.size, cl.scale, cl.caption);
        }
    } else if (cl.page == QLatin1String("inference")) {
        if (!cl.preset.isEmpty() && findPreset(cl.preset)->modelOnly) { // a shipped config, at its context
            const Preset& preset = *findPreset(cl.preset);
            scenario.inference.preset = preset.id.toStdString();
            scenario.inference.input.model = preset.input.model;
            scenario.inference.input.context = preset.input.model.seq;
        } else if (!cl.preset.isEmpty()) { // a setup preset's model (a published transformer) on its GPU
            const Preset& preset = *findPreset(cl.preset);
            const QString model = modelPresetIdFor(preset.input.model);
            if (model.isEmpty())
                return failed(2, tr("--preset: %1 is not a published transformer; the inference page serves "
                                    "one of those")
                                     .arg(cl.preset));
            scenario.inference.preset = model.toStdString();
            scenario.inference.input.model = preset.input.model;
            scenario.inference.input.gpu = preset.input.gpu;
        }
        InferencePage page;
        page.applyScenario(scenario.inference);
        if (json) {
            if (!page.lastInput())
                return failed(2, tr("--page inference: %1").arg(page.lastError()));
            const PageDocument document = inferencePageDocument(*page.lastInput());
            if (!document.ok())
                return failed(2, tr("--page inference: %1").arg(document.error));
            error = saveFile(cl.exportPath, document.json);
        } else {
            napkin::Scenario shown = scenario;
            shown.inference = page.scenario();
            error = savePage(page, cl.exportPath, cl.size, cl.scale, page.controlPanel(),
                             caption(shown, napkin::ScenarioPage::inference));
        }
    } else if (cl.page == QLatin1String("formats")) {
        NumberFormatsPage page;
        page.applyScenario(scenario.formats);
        error = savePage(page, cl.exportPath, cl.size, cl.scale, nullptr,
                         caption(scenario, napkin::ScenarioPage::formats));
    } else if (cl.page == QLatin1String("tensor")) {
        TensorPage page;
        page.applyScenario(scenario.tensor);
        error = savePage(page, cl.exportPath, cl.size, cl.scale, nullptr,
                         caption(scenario, napkin::ScenarioPage::tensor));
    } else if (cl.page == QLatin1String("benchmarks")) {
        BenchmarksPage page;
        page.applyScenario(scenario.benchmarks);
        error = savePage(page, cl.exportPath, cl.size, cl.scale, nullptr,
                         caption(scenario, napkin::ScenarioPage::benchmarks));
    } else if (cl.page == QLatin1String("roofline")) {
        RooflinePage page; // the roof and the default inference points; measured ones need a sweep first
        page.applyScenario(scenario.roofline);
        // The chart alone: the page's device and type boxes say nothing on a slide; its caption does.
        error = saveChart(*page.chart(), cl.exportPath, cl.size, cl.scale, cl.caption);
    } else if (cl.page == QLatin1String("training")) {
        TrainingPage page;
        page.applyScenario(scenario.training);
        if (!finishPageWork(page, std::chrono::minutes(2)))
            return failed(1, tr("--page training: the lesson did not finish computing within two minutes"));
        error = savePage(page, cl.exportPath, cl.size, cl.scale, nullptr,
                         caption(scenario, napkin::ScenarioPage::training));
    } else {
        return failed(2, tr("--page: unknown page '%1'").arg(cl.page));
    }
    if (!error.isEmpty())
        return failed(1, tr("--export: %1").arg(error));
    return {};
}

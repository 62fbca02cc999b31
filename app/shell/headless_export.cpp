#include "app/shell/headless_export.h"

#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/document/scenario_file.h"
#include "app/export/save_file.h"
#include "app/formats/number_formats_page.h"
#include "app/inference/inference_page.h"
#include "app/roofline/roofline_page.h"
#include "app/shell/command_line.h"
#include "app/tensor/tensor_page.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"

#include <QCoreApplication>

#include <memory>

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("HeadlessExport", text);
}

HeadlessExportResult failed(int code, const QString& error) {
    return {code, error};
}

} // namespace

HeadlessExportResult runHeadlessExport(const CommandLine& cl) {
    napkin::Scenario scenario;
    if (!cl.scenarioPath.isEmpty()) {
        const ScenarioLoad load = loadScenarioFile(cl.scenarioPath);
        if (!load.ok())
            return failed(2, tr("--scenario: %1").arg(load.error));
        scenario = *load.scenario;
    }
    // Warnings (a device not available here, ...) do not matter for a picture of the page.
    QString error;
    if (cl.page == QLatin1String("memory") || cl.page == QLatin1String("flops") ||
        cl.page == QLatin1String("timeline")) {
        AccountingPage page;
        if (!cl.scenarioPath.isEmpty())
            page.applyScenario(scenario.accounting);
        else if (!cl.preset.isEmpty())
            page.applyPreset(*findPreset(cl.preset));
        const ChartView* chart =
            cl.page == QLatin1String("memory")  ? static_cast<const ChartView*>(page.memoryChart())
            : cl.page == QLatin1String("flops") ? static_cast<const ChartView*>(page.flopChart())
                                                : page.timelineChart();
        error = saveChart(*chart, cl.exportPath, cl.size, cl.scale);
    } else if (cl.page == QLatin1String("inference")) {
        InferencePage page;
        page.applyScenario(scenario.inference);
        error = savePage(page, cl.exportPath, cl.size, cl.scale);
    } else if (cl.page == QLatin1String("formats")) {
        NumberFormatsPage page;
        page.applyScenario(scenario.formats);
        error = savePage(page, cl.exportPath, cl.size, cl.scale);
    } else if (cl.page == QLatin1String("tensor")) {
        TensorPage page;
        page.applyScenario(scenario.tensor);
        error = savePage(page, cl.exportPath, cl.size, cl.scale);
    } else if (cl.page == QLatin1String("benchmarks")) {
        BenchmarksPage page;
        page.applyScenario(scenario.benchmarks);
        error = savePage(page, cl.exportPath, cl.size, cl.scale);
    } else if (cl.page == QLatin1String("roofline")) {
        RooflinePage page; // the roof and the default inference points; measured ones need a sweep first
        page.applyScenario(scenario.roofline);
        error = savePage(page, cl.exportPath, cl.size, cl.scale);
    } else {
        return failed(2, tr("--page: unknown page '%1'").arg(cl.page));
    }
    if (!error.isEmpty())
        return failed(1, tr("--export: %1").arg(error));
    return {};
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/shell/page_command.h"

#include "app/hardware/chosen_hardware_profile.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/hardware/user_gpu_catalog_file.h"
#include "app/training/data_lesson_panel.h"
#include "engine/text/ascii_case.h"
#include "engine/report/accounting_report.h"
#include "engine/report/cli_command_line.h"
#include "engine/report/inference_report.h"
#include "engine/report/json_values.h"
#include "engine/steptime/inference_time.h"
#include "engine/steptime/step_time.h"
#include "widgets/text/engine_text.h"

#include <QStringList>

#include <algorithm>
#include <string>
#include <vector>

namespace {

QByteArray bytes(const nlohmann::json& document) {
    return QByteArray::fromStdString(napkin::jsonText(document));
}

// `line` naming the catalog file of the GPU `gpuId` when the user defined it (napkin-cli knows only the
// built-in parts), so that the line run elsewhere gives the page's answers. Unchanged for a built-in part,
// and when the file could not be written (`error` then says why).
std::string namingUserGpu(const std::string& line, const std::string& gpuId, QString* error) {
    const std::vector<napkin::GpuSpec>& parts = SessionGpuCatalog::instance().userParts();
    const auto part = std::find_if(parts.begin(), parts.end(), [&](const napkin::GpuSpec& p) {
        return napkin::equalsIgnoringCase(p.id, gpuId);
    });
    if (part == parts.end())
        return line;
    const UserGpuCatalogFile file = userGpuCatalogFile(*part);
    if (file.path.isEmpty()) {
        if (error)
            *error = file.error;
        return line;
    }
    return napkin::withGpuCatalogOption(line, file.path.toStdString());
}

} // namespace

QString pageCaption(QString commandLines) {
    commandLines.replace(QLatin1Char('\n'), QStringLiteral("  ·  "));
    return commandLines.replace(QStringLiteral(" --json"), QString());
}

QString pageCommandLine(const napkin::Scenario& s, napkin::ScenarioPage page,
                        const napkin::CommandModelBase* model, QString* error) {
    using napkin::ScenarioPage;
    switch (page) {
    case ScenarioPage::accounting:
        return toQString(withChosenProfileOption(
            namingUserGpu(napkin::accountCommandLine(s.accounting.input, model), s.accounting.input.gpu, error),
            s.accounting.input.gpu));
    case ScenarioPage::inference:
        return toQString(withChosenProfileOption(
            namingUserGpu(napkin::inferCommandLine(s.inference.input, model), s.inference.input.gpu, error),
            s.inference.input.gpu));
    case ScenarioPage::formats:
        return toQString(napkin::dtypeCommandLine(s.formats.value, s.formats.saturate));
    case ScenarioPage::tensor:
        return toQString(napkin::tensorCommandLine(s.tensor.shape, s.tensor.dtype, s.tensor.expression));
    case ScenarioPage::roofline:
        return toQString(napkin::rooflineCommandLine(s.roofline.device, s.roofline.dtype));
    case ScenarioPage::benchmarks: {
        // One sweep per ticked type (bench matmul takes one --dtype), then the training run.
        const napkin::BenchmarksScenario& b = s.benchmarks;
        const napkin::BenchCommandDevice where{b.device, b.cpuBackend};
        QStringList lines;
        for (napkin::BenchDtype dtype : b.dtypes)
            lines << toQString(napkin::benchMatmulCommandLine(where, dtype, b.sizes));
        napkin::CruncherConfig config;
        config.dim = b.dim;
        config.layers = b.layers;
        config.batch = b.batch;
        config.optimizer = b.optimizer;
        config.precision = b.precision;
        std::string train = napkin::benchTrainCommandLine(where, config, b.steps);
        // The run's step is predicted from the app's profile where it serves this device (a CPU run: a
        // this-cpu profile; a GPU run: a GPU's, which bench train checks against the device it finds).
        const ChosenHardwareProfile& chosen = ChosenHardwareProfile::instance();
        if (chosen.profile() && (chosen.profile()->device == "this-cpu") == (b.device == "cpu"))
            train += " --hardware-profile " + napkin::shellQuoted(chosen.path().toStdString());
        lines << toQString(train);
        return lines.join(QLatin1Char('\n'));
    }
    case ScenarioPage::training: {
        const napkin::TrainingScenario& t = s.training;
        switch (t.lesson) {
        case napkin::TrainingLesson::init:
            return toQString(napkin::lessonInitCommandLine(t.init.dim, t.init.layers,
                                                           static_cast<std::uint64_t>(t.init.seed)));
        case napkin::TrainingLesson::determinism: {
            const auto seed = [](long v) { return static_cast<std::uint64_t>(v); };
            const auto& d = t.determinism;
            return toQString(napkin::lessonDeterminismCommandLine(
                d.steps, {seed(d.datasetSeed), seed(d.initSeed[0]), seed(d.dataSeed[0]), seed(d.initSeed[1]),
                          seed(d.dataSeed[1])}));
        }
        case napkin::TrainingLesson::data: {
            // The demo file is named by where the panel keeps it on this machine; the line draws from it
            // once the page has generated it.
            const std::string file =
                t.data.path.empty() ? DataLessonPanel::demoPath().toStdString() : t.data.path;
            return toQString(napkin::lessonDataCommandLine(file, t.data.tokenType, t.data.batch,
                                                           t.data.context, t.data.batches,
                                                           static_cast<std::uint64_t>(t.data.seed)));
        }
        case napkin::TrainingLesson::mixedPrecision:
            return toQString(napkin::lessonMixedPrecisionCommandLine(t.mixedPrecision.steps));
        }
        return {};
    }
    }
    return {};
}

PageDocument accountingPageDocument(const napkin::AccountingInput& input) {
    const napkin::GpuCatalog& catalog = sessionGpuCatalog(); // a custom GPU is known here
    const napkin::InputError error = napkin::validate(input, catalog);
    if (!error.ok())
        return {{}, QStringLiteral("--%1: %2").arg(toQString(error.field), toQString(error.message))};
    const napkin::GpuSpec& gpu = *catalog.find(input.gpu);
    const napkin::AccountingResult result = napkin::account(input, gpu);
    // The step time as the page shows it: from the app's profile where it serves this GPU, named in the line.
    const napkin::StepTime stepTime =
        napkin::stepTimeFromProfile(input, result, gpu, ChosenHardwareProfile::instance().profileFor(gpu));
    nlohmann::json document = napkin::accountingToJson(input, gpu, result, {}, &stepTime);
    document["command"] = withChosenProfileOption(
        namingUserGpu(document["command"].get<std::string>(), input.gpu, nullptr), input.gpu);
    return {bytes(document), {}};
}

PageDocument inferencePageDocument(const napkin::InferenceInput& input) {
    const napkin::GpuCatalog& catalog = sessionGpuCatalog();
    const napkin::InputError error = napkin::validateInference(input, catalog);
    if (!error.ok())
        return {{}, QStringLiteral("--%1: %2").arg(toQString(error.field), toQString(error.message))};
    const napkin::GpuSpec& gpu = *catalog.find(input.gpu);
    // The predicted times as the page shows them: from the app's profile where it serves this GPU, named in
    // the line.
    const napkin::InferenceTimes times =
        napkin::inferenceTimeFromProfile(input, gpu, ChosenHardwareProfile::instance().profileFor(gpu));
    nlohmann::json document =
        napkin::inferenceToJson(input, gpu, napkin::accountInference(input, gpu), &times);
    document["command"] = withChosenProfileOption(
        namingUserGpu(document["command"].get<std::string>(), input.gpu, nullptr), input.gpu);
    return {bytes(document), {}};
}

#include "app/shell/page_command.h"

#include "engine/report/accounting_report.h"
#include "engine/report/cli_command_line.h"
#include "engine/report/inference_report.h"
#include "engine/report/json_values.h"
#include "widgets/text/engine_text.h"

namespace {

QByteArray bytes(const nlohmann::json& document) {
    return QByteArray::fromStdString(napkin::jsonText(document));
}

} // namespace

QString pageCommandLine(const napkin::Scenario& s, napkin::ScenarioPage page,
                        const napkin::CommandModelBase* model) {
    using napkin::ScenarioPage;
    switch (page) {
    case ScenarioPage::accounting:
        return toQString(napkin::accountCommandLine(s.accounting.input, model));
    case ScenarioPage::inference:
        return toQString(napkin::inferCommandLine(s.inference.input, model));
    case ScenarioPage::formats:
        return toQString(napkin::dtypeCommandLine(s.formats.value, s.formats.saturate));
    case ScenarioPage::tensor:
        return toQString(napkin::tensorCommandLine(s.tensor.shape, s.tensor.dtype, s.tensor.expression));
    case ScenarioPage::roofline:
        return toQString(napkin::rooflineCommandLine(s.roofline.device, s.roofline.dtype));
    case ScenarioPage::benchmarks:
    case ScenarioPage::training:
        return {};
    }
    return {};
}

PageDocument accountingPageDocument(const napkin::AccountingInput& input) {
    const napkin::GpuCatalog& catalog = napkin::GpuCatalog::builtIn();
    const napkin::InputError error = napkin::validate(input, catalog);
    if (!error.ok())
        return {{}, QStringLiteral("--%1: %2").arg(toQString(error.field), toQString(error.message))};
    const napkin::GpuSpec& gpu = *catalog.find(input.gpu);
    return {bytes(napkin::accountingToJson(input, gpu, napkin::account(input, gpu))), {}};
}

PageDocument inferencePageDocument(const napkin::InferenceInput& input) {
    const napkin::GpuCatalog& catalog = napkin::GpuCatalog::builtIn();
    const napkin::InputError error = napkin::validateInference(input, catalog);
    if (!error.ok())
        return {{}, QStringLiteral("--%1: %2").arg(toQString(error.field), toQString(error.message))};
    const napkin::GpuSpec& gpu = *catalog.find(input.gpu);
    return {bytes(napkin::inferenceToJson(input, gpu, napkin::accountInference(input, gpu))), {}};
}

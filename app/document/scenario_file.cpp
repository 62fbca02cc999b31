#include "app/document/scenario_file.h"

#include "app/export/save_file.h"

#include <QCoreApplication>
#include <QFile>

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ScenarioFile", text);
}

} // namespace

ScenarioLoad loadScenarioFile(const QString& path) {
    ScenarioLoad load;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        load.error = tr("%1: %2").arg(path, file.errorString());
        return load;
    }
    // Read one byte past the limit, so the engine sees that the file is too large without reading all of it.
    const QByteArray bytes = file.read(static_cast<qint64>(napkin::kScenarioMaxBytes) + 1);
    if (file.error() != QFileDevice::NoError) {
        load.error = tr("%1: %2").arg(path, file.errorString());
        return load;
    }
    const napkin::ScenarioParse parsed =
        napkin::parseScenario(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    if (!parsed.ok()) {
        load.error = tr("%1: %2").arg(path, QString::fromStdString(parsed.error));
        return load;
    }
    load.scenario = parsed.scenario;
    for (const std::string& w : parsed.warnings)
        load.warnings << QString::fromStdString(w);
    return load;
}

QString saveScenarioFile(const napkin::Scenario& scenario, const QString& path) {
    return saveFile(path, QByteArray::fromStdString(napkin::writeScenario(scenario)));
}

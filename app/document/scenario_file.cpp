// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/document/scenario_file.h"

#include "app/export/save_file.h"

#include <QFile>

ScenarioLoad loadScenarioFile(const QString& path) {
    ScenarioLoad load;
    // The engine's bounded reader: a FIFO, a folder or /dev/zero is refused before a byte is read (a FIFO
    // once left the window waiting for a writer). Its messages name the file.
    const napkin::ScenarioParse parsed = napkin::readScenarioFile(QFile::encodeName(path).toStdString());
    if (!parsed.ok()) {
        load.error = QString::fromStdString(parsed.error);
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

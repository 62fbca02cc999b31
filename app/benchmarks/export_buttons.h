// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The PNG, CSV and JSON buttons of a Benchmarks panel: each asks for a file name, writes through the
// panel's own export function, and says so in a message box if that failed.
#include <QString>

#include <functional>

class QBoxLayout;
class QWidget;

struct PanelExports {
    using Write = std::function<QString(const QString& path)>; ///< an error message, or ""
    Write png, csv, json;
    QString chartName; ///< default file name stem of the chart: "throughput" (.png), ...
    QString runName;   ///< of the run: "matmul" (.csv, .json)
    QString chartTip, runTip;
};

/// Adds the three buttons to `row`, parented to `panel`.
void addExportButtons(QBoxLayout* row, QWidget* panel, const PanelExports& exports);

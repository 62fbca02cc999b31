// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/export_buttons.h"

#include "app/export/file_dialogs.h"

#include <QBoxLayout>
#include <QCoreApplication>
#include <QMessageBox>
#include <QPushButton>

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("PanelExports", text);
}

} // namespace

void addExportButtons(QBoxLayout* row, QWidget* panel, const PanelExports& exports) {
    struct Kind {
        QString label, name, filter, tip;
        PanelExports::Write write;
    };
    const Kind kinds[] = {{tr("PNG…"), exports.chartName + QStringLiteral(".png"), tr("PNG images (*.png)"),
                           exports.chartTip, exports.png},
                          {tr("CSV…"), exports.runName + QStringLiteral(".csv"), tr("CSV files (*.csv)"),
                           exports.runTip, exports.csv},
                          {tr("JSON…"), exports.runName + QStringLiteral(".json"), tr("JSON files (*.json)"),
                           exports.runTip, exports.json}};
    for (const Kind& kind : kinds) {
        auto* button = new QPushButton(kind.label, panel);
        button->setToolTip(kind.tip);
        QObject::connect(button, &QPushButton::clicked, panel, [panel, kind] {
            const QString path = chooseSaveFile(panel, tr("Export"), kind.name, kind.filter);
            if (path.isEmpty())
                return;
            if (const QString error = kind.write(path); !error.isEmpty())
                QMessageBox::warning(panel, tr("Export"), error);
        });
        row->addWidget(button);
    }
}

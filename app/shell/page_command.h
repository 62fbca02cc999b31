// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Each page as the napkin-cli command that reproduces it (Edit ▸ Copy as command), and the accounting and
// inference pages' answers as the JSON document that command prints (napkin --export FILE.json). The
// lines and documents themselves are the engine's (engine/report), the same ones napkin-cli writes.
#include "engine/report/cli_command_line.h"
#include "engine/scenario/scenario.h"

#include <QByteArray>
#include <QString>

/// The napkin-cli line for `page` as `scenario` sets it (the Benchmarks page: one line per ticked type's
/// `bench matmul`, then its `bench train`); empty for a page no line reproduces yet (training). `model`,
/// when given, names the accounting or inference page's model its own way (an opened config.json:
/// `--config PATH`, and the flags on top). A GPU the user defined is named with `--gpu-catalog FILE`, the
/// file userGpuCatalogFile() writes; `error`, when given, says why the line lacks it when that failed.
QString pageCommandLine(const napkin::Scenario& scenario, napkin::ScenarioPage page,
                        const napkin::CommandModelBase* model = nullptr, QString* error = nullptr);

/// A page picture's caption from its pageCommandLine: one line (the Benchmarks page's runs joined), without
/// `--json`, which is the output's format, not the setup.
QString pageCaption(QString commandLines);

struct PageDocument {
    QByteArray json; ///< napkin-cli's --json document, `command` included
    QString error;   ///< why there is none: the page's input is invalid (the message its field shows)
    bool ok() const { return error.isEmpty(); }
};

/// `napkin-cli account --json` for the accounting page's input, or the validation error; its `command`
/// names a user-defined GPU's file as pageCommandLine does.
PageDocument accountingPageDocument(const napkin::AccountingInput& input);
/// `napkin-cli infer --json` for the inference page's input, or the validation error.
PageDocument inferencePageDocument(const napkin::InferenceInput& input);

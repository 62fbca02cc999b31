// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/shell/help_menu.h"

#include "app/classroom/tour_keys.h"
#include "engine/benchmarks/backend_registry.h"
#include "widgets/charts/chart_view.h"
#include "widgets/text/engine_text.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QWidget>

#include <algorithm>
#include <utility>

using napkin::ScenarioPage;

HelpMenu::HelpMenu(QWidget& window, std::function<ScenarioPage()> currentPage, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_currentPage(std::move(currentPage)) {}

void HelpMenu::addTo(QMenuBar& bar) {
    QMenu* help = bar.addMenu(tr("&Help"));
    QAction* page = help->addAction(tr("&What is this page?"));
    page->setObjectName(QStringLiteral("helpPage"));
    page->setShortcut(QKeySequence::HelpContents);
    connect(page, &QAction::triggered, this,
            [this] { show(tr("What is this page?"), pageHelp(m_currentPage())); });
    QAction* keys = help->addAction(tr("&Keyboard shortcuts"));
    keys->setObjectName(QStringLiteral("helpShortcuts"));
    connect(keys, &QAction::triggered, this,
            [this] { show(tr("Keyboard shortcuts"), shortcutsHelp(m_window)); });
    QAction* cli = help->addAction(tr("The &command line (napkin-cli)"));
    cli->setObjectName(QStringLiteral("helpCommandLine"));
    connect(cli, &QAction::triggered, this, [this] { show(tr("The command line"), commandLineHelp()); });
    help->addSeparator();
    QAction* about = help->addAction(tr("&About Napkin"));
    about->setObjectName(QStringLiteral("helpAbout"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, [this] { show(tr("About Napkin"), aboutText()); });
}

QString HelpMenu::pageHelp(ScenarioPage page) {
    switch (page) {
    case ScenarioPage::accounting:
        return tr(
            "<p><b>Accounting</b>: the memory and FLOPs of one training step, each number beside the "
            "formula that gives it.</p><p>Lecture idea: <i>resource accounting</i>. Memory is "
            "parameters, gradients, optimizer state and activations, each in its own dtype (16 bytes "
            "per parameter for fp32 AdamW); a step costs 6·tokens·parameters FLOPs (forward 2, backward "
            "4); training time is FLOPs / (MFU · peak · GPUs). A setup fits when the step's peak "
            "fits.</p>");
    case ScenarioPage::inference:
        return tr(
            "<p><b>Inference</b>: serving a published model: weights and KV cache per GPU, prefill and "
            "decode time.</p><p>Lecture idea: <i>decode is memory-bound</i>. Each new token reads every "
            "weight and the whole KV cache (2·L·g·(d/a)·bytes per token) for about 2·parameters FLOPs, "
            "so its time is bytes / bandwidth until the batch is large enough to reach the "
            "roofline's ridge.</p>");
    case ScenarioPage::formats:
        return tr("<p><b>Number formats</b>: the bits of fp32, fp16, bf16 and fp8, and what each can "
                  "represent.</p><p>Lecture idea: <i>precision versus range</i>. fp16 underflows 1e-8 to 0 "
                  "while bf16, with fp32's exponent, keeps it; fp8 E4M3 tops out at 448 and E5M2 at "
                  "57344.</p>");
    case ScenarioPage::tensor:
        return tr("<p><b>Tensor layout</b>: a tensor as storage plus strides, and what views, transposes "
                  "and slices do to them.</p><p>Lecture idea: <i>views share storage</i>. Element (i, j) "
                  "lives at offset + i·stride₀ + j·stride₁; a transpose only swaps strides, so "
                  "<code>.view()</code> fails on it until <code>.contiguous()</code> copies.</p>");
    case ScenarioPage::benchmarks:
        return tr("<p><b>Benchmarks</b>: matrix multiplies and a training step measured on this machine, "
                  "next to what the accounting predicts.</p><p>Lecture idea: <i>measure, do not "
                  "guess</i>. Warm up, time the median of repeats, check the result, and compare the FLOP/s "
                  "with the datasheet's peak (MFU).</p>");
    case ScenarioPage::roofline:
        return tr(
            "<p><b>Roofline</b>: attainable FLOP/s against arithmetic intensity (FLOPs per byte "
            "moved).</p><p>Lecture idea: <i>compute-bound or memory-bound</i>. Below the ridge "
            "(peak / bandwidth) a kernel waits on memory; above it, on arithmetic. Decode sits far left, "
            "prefill and large matrix multiplies to the right.</p>");
    case ScenarioPage::training:
        return tr("<p><b>Training</b>: the lecture's training-loop lessons: initialisation, data loading, "
                  "mixed precision and determinism.</p><p>Lecture idea: <i>the loop around the "
                  "FLOPs</i>. Weights drawn from N(0, 1)/√fan_in keep activations in range; a loss scaler "
                  "keeps fp16 gradients from underflowing; seeds make a run repeatable.</p>");
    }
    return {};
}

QString HelpMenu::shortcutsHelp(const QWidget& window) {
    QList<std::pair<QString, QString>> rows;
    for (const QAction* a : window.findChildren<QAction*>()) {
        if (a->shortcut().isEmpty() || a->text().isEmpty())
            continue;
        QString name = a->text();
        name.remove(QLatin1Char('&'));
        rows.append({a->shortcut().toString(QKeySequence::NativeText), name});
    }
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    // The tour reads its keys from the window while it runs (no action holds them): its own table.
    for (const TourKey& k : tourKeys())
        rows.append({QKeySequence(k.key).toString(QKeySequence::NativeText), tourCommandName(k.command)});
    QString html = QStringLiteral("<table>");
    for (const auto& [keys, name] : rows)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>&nbsp;&nbsp;%2</td></tr>")
                    .arg(keys.toHtmlEscaped(), name.toHtmlEscaped());
    html += QStringLiteral("</table><p>%1</p>")
                .arg(tr("A control takes the mouse wheel once it has focus (click it or Tab to it); "
                        "otherwise the wheel scrolls the panel."));
    return html;
}

QString HelpMenu::commandLineHelp() {
    return tr("<p>Every number the Accounting and Inference pages show, <code>napkin-cli</code> prints as "
              "JSON: <code>napkin-cli account</code>, <code>napkin-cli infer</code>, with the same presets "
              "(<code>--preset</code>).</p><p><b>Edit ▸ Copy as command</b> (Ctrl+Shift+C) puts the line "
              "that reproduces the page in front on the clipboard.</p><p>The flags and JSON fields are the "
              "project's contract, written in <code>docs/cli.md</code>; <code>napkin --export FILE --page "
              "PAGE</code> draws a page without a window.</p>");
}

QString HelpMenu::aboutText() {
    QString html = tr("<p><b>Napkin %1</b>: resource accounting for deep learning, from the lecture's "
                      "napkin math to measurement.</p><ul>")
                       .arg(QCoreApplication::applicationVersion());
    html += tr("<li>Qt %1 (built with %2)</li>")
                .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
    html += QStringLiteral("<li>%1</li>").arg(chartLibraryVersion());
    // The registry says what this build has and why something is missing: no #ifdef here.
    for (const napkin::BackendEntry& e : napkin::listCpuBackends())
        if (e.name == "onednn")
            html += e.available ? tr("<li>oneDNN %1</li>").arg(toQString(e.version))
                                : tr("<li>oneDNN: not in this build</li>");
    for (const napkin::BackendEntry& e : napkin::listBackends())
        if (e.name == "cuda")
            html += e.version.empty()
                        ? tr("<li>CUDA: %1</li>").arg(toQString(e.unavailableReason).toHtmlEscaped())
                    : e.available
                        ? tr("<li>CUDA %1</li>").arg(toQString(e.version))
                        : tr("<li>CUDA %1 (built; %2)</li>")
                              .arg(toQString(e.version), toQString(e.unavailableReason).toHtmlEscaped());
    html += QStringLiteral("</ul>");
    return html;
}

void HelpMenu::show(const QString& title, const QString& html) {
    auto* box = new QMessageBox(QMessageBox::Information, title, html, QMessageBox::Close, &m_window);
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

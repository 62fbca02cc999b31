// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/matmul_sweep_panel.h"

#include "app/benchmarks/export_buttons.h"
#include "app/benchmarks/result_table.h"
#include "app/export/save_file.h"
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/matmul_report.h"
#include "widgets/charts/throughput_chart.h"
#include "widgets/controls/controls_grid.h"
#include "widgets/controls/error_overlay.h"
#include "widgets/controls/flow_splitter.h"
#include "widgets/controls/reserved_message_label.h"
#include "widgets/controls/text_tone.h"
#include "widgets/controls/wrapped_label.h"
#include "widgets/controls/wrapping_column.h"
#include "widgets/text/engine_text.h"

#include <QCheckBox>
#include <QColor>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSizePolicy>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

using namespace napkin;

namespace {

// Every type the engine benchmarks; the ones the chosen backend refuses are disabled with its reason.
constexpr BenchDtype kOffered[] = {BenchDtype::fp32, BenchDtype::fp64, BenchDtype::bf16,
                                   BenchDtype::fp16, BenchDtype::tf32, BenchDtype::fp8e4m3};

} // namespace

MatmulSweepPanel::MatmulSweepPanel(QWidget* parent)
    : QGroupBox(tr("Matmul throughput"), parent)
    , m_fp16Warning(new QLabel(this))
    , m_unsupported(new QLabel(this))
    , m_sizes(new QLineEdit(this))
    , m_sizesError(new ErrorOverlay(m_sizes))
    , m_run(new QPushButton(tr("Run"), this))
    , m_chart(new ThroughputChart(this))
    , m_basis(
          new ReservedMessageLabel(3, this)) // its three lines kept before a run: the chart keeps its height
    , m_results(makeResultTable({tr("dtype"), tr("n"), tr("FLOPs"), tr("median"), tr("FLOP/s"), tr("MFU"),
                                 tr("rel. err"), tr("ran on"), tr("status")},
                                this)) {
    // Each column's widest cell, made by the formatters the rows use, at sizes a sweep reaches: the table's
    // width is decided before the first run and a run does not move it under the chart.
    setResultColumnSamples(m_results, {QStringLiteral("fp64"), QStringLiteral("16384"),
                                       QString::fromStdString(formatFlops(888.8e12)),
                                       QString::fromStdString(formatDuration(888.8e-3)),
                                       QString::fromStdString(formatFlops(888.8e12, true)),
                                       QString::number(188.8, 'f', 1) + QLatin1Char('%'),
                                       QString::number(8.8e-08, 'g', 2), QStringLiteral("onednn")});
    const BenchmarksScenario defaults;
    // A grid, not a form layout (controls_grid.h): the fp16 warning was drawn with two of its six lines cut.
    auto* controls = new WrappingColumn(this);
    auto* form = new ControlsGrid(controls);
    // Three to a row: six in one row do not fit the 340-pixel control column and their names get cut.
    auto* dtypeRow = new QGridLayout;
    for (BenchDtype d : kOffered) {
        auto* check = new QCheckBox(toQString(benchDtypeName(d)), this);
        check->setChecked(std::find(defaults.dtypes.begin(), defaults.dtypes.end(), d) !=
                          defaults.dtypes.end());
        connect(check, &QCheckBox::toggled, this, &MatmulSweepPanel::updateFp16Warning);
        // A ticked type answers "Tick at least one type." (an error about the sizes stays).
        connect(check, &QCheckBox::toggled, this, [this](bool ticked) {
            if (ticked && m_sizesError->property("aboutTypes").toBool())
                m_sizesError->clearMessage();
        });
        m_dtypes[d] = check;
        const int index = static_cast<int>(m_dtypes.size()) - 1;
        dtypeRow->addWidget(check, index / 3, index % 3);
    }
    form->addLabelled(tr("Types"), dtypeRow);
    m_unsupported->setObjectName(QStringLiteral("unsupportedDtypes"));
    m_unsupported->setWordWrap(true);
    setTextTone(m_unsupported, TextTone::note);
    m_unsupported->hide();
    form->addSpanning(m_unsupported);
    m_fp16Warning->setText(
        tr("fp16 on the CPU is very slow: oneDNN 2.6 has no fp16 matmul, so it runs on Eigen, whose "
           "Eigen::half has no fast path (0.1–0.4 GFLOP/s, about 600× below fp32): n = 1024 takes seconds "
           "per GEMM and every case runs at least 2 warm-up and 11 timed GEMMs. Keep fp16 sizes at 256 or "
           "below."));
    m_fp16Warning->setWordWrap(true);
    setTextTone(m_fp16Warning, TextTone::caution);
    // Its room is kept while fp16 is unticked: shown and hidden in its own row, it moved the sizes field
    // and the Run button under the pointer that had just ticked the box.
    QSizePolicy keepRoom = m_fp16Warning->sizePolicy();
    keepRoom.setRetainSizeWhenHidden(true);
    m_fp16Warning->setSizePolicy(keepRoom);
    form->addSpanning(m_fp16Warning);
    m_sizes->setText(QString::fromStdString(defaults.sizes));
    m_sizes->setObjectName(QStringLiteral("sizes"));
    m_sizes->setToolTip(tr("Square sizes n, comma-separated: each case is an n×n×n GEMM (2·n³ FLOPs)"));
    form->addLabelled(tr("Sizes n"), m_sizes);
    // Drawn over the controls under the field (ErrorOverlay): a row of its own made the Run button and the
    // chart jump down while it was shown.
    m_sizesError->setObjectName(QStringLiteral("sizesError"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    addExportButtons(buttons, this,
                     {[this](const QString& path) { return exportChartPng(path); },
                      [this](const QString& path) { return exportCsv(path); },
                      [this](const QString& path) { return exportJson(path); }, QStringLiteral("throughput"),
                      QStringLiteral("matmul"), tr("Export the throughput chart as PNG"),
                      tr("Export the sweep: the same document as napkin-cli bench matmul --json")});
    form->addSpanning(buttons);
    form->endRows();
    controls->setMaximumWidth(340);

    m_basis->setWordWrap(true);
    m_results->setObjectName(QStringLiteral("results"));
    auto* chartPane = new QWidget(this);
    auto* chartColumn = new QVBoxLayout(chartPane);
    chartColumn->setContentsMargins(0, 0, 0, 0);
    chartColumn->addWidget(m_chart, 1);
    chartColumn->addWidget(m_basis);
    // The controls and the chart in one pane, the table beside them while the row has room for both, under
    // them (the panel's whole width) when not. Chart and table alone in the splitter squeezed the chart to
    // ~140 px of axes beside an empty table at 1280×720 in presentation type (its x title on four lines),
    // and stacked they were still wider than a 1024-pixel viewport beside the controls. The table's minimum
    // width is what its columns need (result_table.h).
    auto* top = new QWidget(this);
    auto* topRow = new QHBoxLayout(top);
    topRow->setContentsMargins(0, 0, 0, 0);
    topRow->addWidget(controls);
    topRow->addWidget(chartPane, 1);
    auto* results = new FlowSplitter(this);
    results->addWidget(top);
    results->addWidget(m_results);
    // The room beyond the minimums to the chart: an empty table does not need half the row.
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 1);
    // Beside the table only where the controls (~50 average characters) and the chart (~80) keep their
    // room; else the table goes under the chart, before a run and after alike (its width is fixed by
    // setResultColumnSamples above). Beside it at 1280×720 the chart had ~300 px of 1,228.
    results->setComfortableColumns(0, 130);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(results);

    connect(m_run, &QPushButton::clicked, this, &MatmulSweepPanel::runClicked);
    connect(m_sizes, &QLineEdit::textEdited, m_sizesError, &ErrorOverlay::clearMessage);
    updateFp16Warning();
    showSweep(std::nullopt);
}

std::optional<std::vector<MatmulCase>> MatmulSweepPanel::cases() {
    std::string error;
    std::vector<MatmulCase> all;
    for (const auto& [dtype, check] : m_dtypes) {
        if (!check->isChecked() || !check->isEnabled())
            continue;
        const auto some = squareMatmulCases(m_sizes->text().toStdString(), dtype, &error);
        if (!some) {
            m_sizesError->setProperty("aboutTypes", false);
            m_sizesError->showMessage(tr("Sizes: %1").arg(QString::fromStdString(error)));
            return std::nullopt;
        }
        all.insert(all.end(), some->begin(), some->end());
    }
    if (all.empty()) {
        m_sizesError->setProperty("aboutTypes", true);
        m_sizesError->showMessage(tr("Tick at least one type."));
        return std::nullopt;
    }
    m_sizesError->clearMessage();
    return all;
}

void MatmulSweepPanel::setRunEnabled(bool enabled) {
    m_run->setEnabled(enabled);
}

void MatmulSweepPanel::setUnsupportedDtypes(const std::map<BenchDtype, std::string>& reasons) {
    QStringList lines;
    for (const auto& [dtype, check] : m_dtypes) {
        const auto it = reasons.find(dtype);
        check->setEnabled(it == reasons.end());
        check->setToolTip(it == reasons.end() ? QString() : toQString(it->second));
        if (it != reasons.end())
            lines << tr("%1: %2").arg(toQString(benchDtypeName(dtype)), toQString(it->second));
    }
    m_unsupported->setText(lines.join(QLatin1Char('\n')));
    m_unsupported->setVisible(!lines.isEmpty());
}

void MatmulSweepPanel::updateFp16Warning() {
    m_fp16Warning->setVisible(m_dtypes[BenchDtype::fp16]->isChecked());
}

void MatmulSweepPanel::showSweep(const std::optional<MatmulSweep>& sweep) {
    m_sweep = sweep;
    if (!sweep) {
        m_results->setRowCount(0);
        m_basis->setText(tr("Run a sweep to see measured FLOP/s against n and the promised peak."));
        m_chart->setData({});
        return;
    }
    // A cancelled sweep keeps the cases it finished; the basis line says the table is not the whole run.
    render(*sweep,
           sweep->cancelled ? tr("Partial run (cancelled): only the cases listed finished. ") : QString());
}

void MatmulSweepPanel::showRunningSweep(const MatmulSweep& soFar, int caseCount) {
    m_sweep.reset();
    render(soFar, tr("Running: %1 of %2 case(s) finished; the others appear as they finish. ")
                      .arg(soFar.results.size())
                      .arg(caseCount));
}

void MatmulSweepPanel::render(const MatmulSweep& sweep, const QString& state) {
    ThroughputChartData data;
    m_results->setRowCount(0);
    data.promisedBasis = QString::fromStdString(sweep.device.promisedBasis);
    for (const MatmulResult& r : sweep.results) {
        const QString dtype = toQString(benchDtypeName(r.shape.dtype));
        auto series = std::find_if(data.series.begin(), data.series.end(),
                                   [&](const auto& s) { return s.dtype == dtype; });
        if (series == data.series.end()) {
            data.series.push_back({dtype, {}, r.promisedFlopsPerSecond});
            series = data.series.end() - 1;
        }
        if (r.ok)
            series->points.push_back({static_cast<double>(r.shape.n), r.flops, r.flopsPerSecond, r.mfu});
        const int row = m_results->rowCount();
        m_results->insertRow(row);
        setResultCell(m_results, row, 0, dtype);
        setResultCell(m_results, row, 1, QString::number(r.shape.n));
        setResultCell(m_results, row, 2, QString::fromStdString(formatFlops(r.flops)),
                      tr("2·n³ = %1").arg(QString::fromStdString(formatExact(r.flops))));
        if (!r.ok) {
            setResultCell(m_results, row, 8, tr("failed: %1").arg(QString::fromStdString(r.error)),
                          QString::fromStdString(r.error));
            continue;
        }
        setResultCell(m_results, row, 3, QString::fromStdString(formatDuration(r.timing.medianSeconds)),
                      tr("p20 %1, p80 %2\n%3 samples of %4 call(s) after %5 warm-up run(s)")
                          .arg(QString::fromStdString(formatDuration(r.timing.p20Seconds)),
                               QString::fromStdString(formatDuration(r.timing.p80Seconds)))
                          .arg(r.timing.samples)
                          .arg(r.callsPerSample)
                          .arg(r.warmupRuns));
        setResultCell(m_results, row, 4, QString::fromStdString(formatFlops(r.flopsPerSecond, true)));
        setResultCell(m_results, row, 5,
                      r.mfu ? QString::number(*r.mfu * 100, 'f', 1) + QLatin1Char('%') : tr("–"));
        setResultCell(m_results, row, 6, QString::number(r.maxRelError, 'g', 2),
                      tr("max over %1 sampled entries of |c − ref| / Σ|a·b|, ref in long double")
                          .arg(r.verifiedEntries));
        if (!r.cpuBackend.empty()) // the library, and the kernel it chose
            setResultCell(m_results, row, 7, toQString(r.cpuBackend), toQString(r.implementation));
        // A case that cannot be right (faster than the peak) or was timed too briefly says so where its
        // numbers are, as the Roofline page flags the same point "above the roof".
        const std::string caveats = matmulCaveatText(r, sweep.options);
        if (caveats.empty()) {
            setResultCell(m_results, row, 8, tr("ok"));
        } else {
            setResultCell(m_results, row, 8, tr("check: %1").arg(toQString(caveats)), toQString(caveats));
            for (int column : {4, 5, 8})
                m_results->item(row, column)->setForeground(QColor(0xc0, 0x39, 0x2b));
        }
    }
    for (auto& s : data.series)
        std::sort(s.points.begin(), s.points.end(),
                  [](const auto& a, const auto& b) { return a.size < b.size; });
    QString ranOn;
    if (!sweep.device.cpuBackend.empty())
        ranOn = tr("CPU backend %1 %2, ISA %3. ")
                    .arg(toQString(sweep.device.cpuBackend), toQString(sweep.device.cpuBackendVersion),
                         toQString(sweep.device.isa));
    m_basis->setText(
        state + ranOn +
        tr("Dashed: promised peak per type — %1. Small sizes sit far below it: each call is "
           "dominated by fixed overhead (thread hand-off, packing, loop set-up), not arithmetic.")
            .arg(data.promisedBasis));
    m_chart->setData(data);
}

QString MatmulSweepPanel::exportChartPng(const QString& path) const {
    return saveChart(*m_chart, path, QSize(1600, 900));
}

QString MatmulSweepPanel::exportCsv(const QString& path) const {
    if (!m_sweep)
        return tr("no sweep to export yet: run one first");
    return saveFile(path, QByteArray::fromStdString(matmulSweepCsv(*m_sweep)));
}

QString MatmulSweepPanel::exportJson(const QString& path) const {
    if (!m_sweep)
        return tr("no sweep to export yet: run one first");
    return saveFile(path, QByteArray::fromStdString(jsonText(matmulSweepJson(*m_sweep))));
}

// --- scenario: the panel's controls to its part of napkin::BenchmarksScenario and back ---

void MatmulSweepPanel::writeScenario(BenchmarksScenario& s) const {
    s.dtypes.clear();
    for (BenchDtype d : allBenchDtypes()) // a fixed order, so that equal pages write equal files
        if (const auto it = m_dtypes.find(d); it != m_dtypes.end() && it->second->isChecked())
            s.dtypes.push_back(d);
    s.sizes = m_sizes->text().toStdString();
}

std::vector<BenchDtype> MatmulSweepPanel::runnableDtypes() const {
    std::vector<BenchDtype> dtypes;
    for (BenchDtype d : allBenchDtypes())
        if (const auto it = m_dtypes.find(d);
            it != m_dtypes.end() && it->second->isChecked() && it->second->isEnabled())
            dtypes.push_back(d);
    return dtypes;
}

QStringList MatmulSweepPanel::readScenario(const BenchmarksScenario& s) {
    QStringList warnings;
    for (BenchDtype d : s.dtypes)
        if (!m_dtypes.contains(d))
            warnings << tr("benchmarks.dtypes: %1 has no tick box on this page; ignored")
                            .arg(toQString(benchDtypeName(d)));
    for (const auto& [dtype, check] : m_dtypes)
        check->setChecked(std::find(s.dtypes.begin(), s.dtypes.end(), dtype) != s.dtypes.end());
    m_sizes->setText(QString::fromStdString(s.sizes));
    m_sizesError->clearMessage();
    return warnings;
}

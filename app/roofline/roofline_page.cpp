// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/roofline/roofline_page.h"

#include "app/export/file_dialogs.h"
#include "app/export/save_file.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/jobs/task_runner.h"
#include "app/roofline/explain_roofline.h"
#include "app/roofline/roofline_points.h"
#include "engine/benchmarks/cpu_roofline.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/numerics/quantity_format.h"
#include "widgets/charts/roofline_chart.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/controls/panel_scroll_area.h"
#include "widgets/controls/text_tone.h"
#include "widgets/controls/wrapped_label.h"
#include "widgets/text/engine_text.h"

#include <QComboBox>
#include <QEvent>
#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

using namespace napkin;

namespace {

constexpr ComputeType kDtypes[] = {ComputeType::fp32, ComputeType::tf32, ComputeType::fp16, ComputeType::bf16,
                                   ComputeType::fp8};

const char* const kCpu = "cpu";

} // namespace

RooflinePage::RooflinePage(QWidget* parent)
    : QWidget(parent)
    , m_runner(new TaskRunner(this))
    , m_roofNote(new WrappedLabel(this))
    , m_aboveRoof(new WrappedLabel(this))
    , m_inferenceNote(new WrappedLabel(this))
    , m_pointsNote(new WrappedLabel(this))
    , m_chart(new RooflineChart(this))
    , m_explain(new ExplainPane(this))
    , m_inference(defaultRooflineInference())
    , m_inferenceModel(tr("Llama 3 8B")) {
    m_roofNote->setObjectName(QStringLiteral("roofNote"));
    m_aboveRoof->setObjectName(QStringLiteral("aboveRoof"));
    m_inferenceNote->setObjectName(QStringLiteral("inferenceNote"));
    m_pointsNote->setObjectName(QStringLiteral("pointsNote"));
    for (QLabel* label : {m_roofNote, m_aboveRoof, m_inferenceNote, m_pointsNote}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    // Colours through the palette and only the weight set: a style sheet pinned these notes' font, so
    // presentation mode's type passed them by (12 px under 17 px notes), and grey was 3.9:1 on white.
    setTextTone(m_aboveRoof, TextTone::alert);
    QFont bold;
    bold.setBold(true); // the weight alone: the size still follows the window's
    m_aboveRoof->setFont(bold);
    m_aboveRoof->hide();
    setTextTone(m_pointsNote, TextTone::note);
    // The chart and its notes scroll when the window is too short for them (a 1280×720 projector in
    // presentation mode), rather than squeeze the chart until its legend is cut (issue 35).
    auto* content = new QWidget(this);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_roofNote);
    column->addWidget(m_aboveRoof); // an error stays in view over the chart; the other notes scroll under it
    // The chart keeps four fifths of the column's view (eventFilter); the notes under it scroll. Given what
    // the notes left, its plot was under half the view once measured points filled them (issue 35).
    m_chartHolder = new QWidget(content);
    auto* holder = new QVBoxLayout(m_chartHolder);
    holder->setContentsMargins(0, 0, 0, 0);
    holder->addWidget(m_chart);
    column->addWidget(m_chartHolder, 1);
    column->addWidget(m_pointsNote);
    column->addWidget(m_inferenceNote);
    m_column = new PanelScrollArea(content, this);
    m_column->viewport()->installEventFilter(this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(makeControls());
    layout->addWidget(m_column, 1);
    layout->addWidget(m_explain);
    connect(m_runner, &TaskRunner::progress, this, &RooflinePage::onProgress);
    connect(m_runner, &TaskRunner::failed, this, [this](const QString& message) {
        m_measuring = false;
        m_progress->hide();
        m_cancel->setEnabled(false);
        m_cancel->hide();
        m_measure->setEnabled(true);
        m_roofNote->setText(tr("This CPU: not measured: %1").arg(message));
    });
    // Until the Inference tab sends its setting: its opening one, accounted here once.
    if (const GpuSpec* gpu = sessionGpuCatalog().find(m_inference.gpu))
        setInferenceSetting(m_inference, accountInference(m_inference, *gpu));
}

RooflinePage::~RooflinePage() = default;

bool RooflinePage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_column->viewport() && event->type() == QEvent::Resize)
        m_chartHolder->setMinimumHeight(m_column->viewport()->height() * 4 / 5);
    return QWidget::eventFilter(watched, event);
}

QWidget* RooflinePage::makeControls() {
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_device = new QComboBox(row);
    m_device->setObjectName(QStringLiteral("device"));
    for (const GpuSpec& gpu : sessionGpuCatalog().gpus())
        m_device->addItem(tr("%1 (datasheet)").arg(toQString(gpu.id)), toQString(gpu.id));
    m_device->addItem(tr("this CPU (measured)"), QString::fromLatin1(kCpu));
    // A part the user defines on another page is a roof here too, listed before the CPU.
    connect(&SessionGpuCatalog::instance(), &SessionGpuCatalog::changed, m_device, [this] {
        for (const GpuSpec& gpu : sessionGpuCatalog().gpus())
            if (m_device->findData(toQString(gpu.id)) < 0)
                m_device->insertItem(m_device->findData(QString::fromLatin1(kCpu)),
                                     tr("%1 (datasheet)").arg(toQString(gpu.id)), toQString(gpu.id));
    });
    m_dtype = new QComboBox(row);
    m_dtype->setObjectName(QStringLiteral("dtype"));
    for (ComputeType d : kDtypes)
        m_dtype->addItem(toQString(computeTypeName(d)), static_cast<int>(d));
    m_measure = new QPushButton(tr("Measure"), row);
    m_measure->setObjectName(QStringLiteral("measure"));
    m_cancel = new QPushButton(tr("Cancel"), row);
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(row);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(160);
    m_progress->hide();
    auto* clear = new QPushButton(tr("Clear measured points"), row);
    auto* exportPng = new QPushButton(tr("Export chart…"), row);
    exportPng->setToolTip(tr("The roofline chart as PNG, SVG or PDF (also in File ▸ Export other chart)"));
    layout->addWidget(new QLabel(tr("Roof of"), row));
    layout->addWidget(m_device);
    layout->addWidget(new QLabel(tr("type"), row));
    layout->addWidget(m_dtype);
    layout->addWidget(m_measure);
    layout->addWidget(m_progress);
    layout->addWidget(m_cancel);
    layout->addStretch(1);
    layout->addWidget(clear);
    layout->addWidget(exportPng);

    const RooflineScenario defaults;
    m_device->setCurrentIndex(std::max(0, m_device->findData(toQString(defaults.device))));
    m_dtype->setCurrentIndex(std::max(0, m_dtype->findData(static_cast<int>(defaults.dtype))));
    connect(m_device, &QComboBox::currentIndexChanged, this, &RooflinePage::rebuild);
    connect(m_dtype, &QComboBox::currentIndexChanged, this, &RooflinePage::rebuild);
    connect(m_measure, &QPushButton::clicked, this, &RooflinePage::measureCpuRoof);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_runner->cancel(); // the measurement finishes on the worker; its result is dropped
        m_measuring = false;
        m_progress->hide();
        m_cancel->setEnabled(false);
        rebuild();
    });
    connect(clear, &QPushButton::clicked, this, &RooflinePage::clearMeasuredPoints);
    connect(exportPng, &QPushButton::clicked, this, [this] {
        const QString path = chooseSaveFile(this, tr("Export chart"), QStringLiteral("roofline.png"),
                                            tr("Images (*.png *.svg *.pdf)"));
        if (path.isEmpty())
            return;
        if (const QString error = saveChart(*m_chart, path, QSize(1600, 900), 2.0); !error.isEmpty())
            QMessageBox::warning(this, tr("Export chart"), error);
    });
    return row;
}

std::string RooflinePage::device() const {
    return m_device->currentData().toString().toStdString();
}

ComputeType RooflinePage::dtype() const {
    return static_cast<ComputeType>(m_dtype->currentData().toInt());
}

std::optional<Roofline> RooflinePage::roofFor(const std::string& device, ComputeType dtype,
                                              std::string* whyNot) const {
    if (device == kCpu) {
        if (const auto it = m_cpuRoofs.find(dtype); it != m_cpuRoofs.end())
            return it->second;
        if (whyNot)
            *whyNot = "this CPU's " + std::string(computeTypeName(dtype)) + " roof is not measured";
        return std::nullopt;
    }
    const GpuSpec* gpu = sessionGpuCatalog().find(device);
    if (!gpu) {
        if (whyNot)
            *whyNot = "'" + device + "' is not in the GPU catalog";
        return std::nullopt;
    }
    return gpuRoofline(*gpu, dtype, whyNot);
}

void RooflinePage::setMeasuredCpuRoof(ComputeType dtype, const Roofline& roof) {
    m_cpuRoofs[dtype] = roof;
    rebuild();
}

// The engine's measurement, the one napkin-cli roofline --device cpu prints: the FMA-loop peak and a
// STREAM-style triad, a few seconds on the page's worker. It has no cancellation point inside, so Cancel
// drops its result (the runner's generation counter) and the worker finishes on its own.
void RooflinePage::measureCpuRoof() {
    const ComputeType type = dtype();
    m_measuring = true;
    m_measure->setEnabled(false);
    m_cancel->setEnabled(true);
    m_cancel->show();
    m_progress->setRange(0, 0); // busy: the measurement reports no fraction
    m_progress->show();
    m_roofNote->setText(tr("Measuring this CPU's %1 roof: the FMA-loop peak and a STREAM-style triad (a few "
                           "seconds)…")
                            .arg(toQString(computeTypeName(type))));
    m_runner->start([this, type, bytes = m_bytesPerArray](const TaskContext& task) {
        task.progress(0, QStringLiteral("measure"));
        std::string whyNot;
        const std::optional<Roofline> roof = measureCpuRoofline(benchDtypeOf(type), 0, &whyNot, bytes);
        if (!roof)
            throw std::runtime_error(whyNot); // the runner reports it through failed()
        return TaskRunner::Deliver([this, type, measured = *roof] {
            m_measuring = false;
            m_progress->hide();
            m_cancel->setEnabled(false);
            m_cpuRoofs[type] = measured;
            rebuild();
        });
    });
}

void RooflinePage::onProgress(const TaskProgress& report) {
    m_progress->setValue(static_cast<int>(std::lround(report.fraction * 1000)));
}

void RooflinePage::addMeasuredSweep(const MatmulSweep& sweep) {
    m_sweeps.push_back(sweep);
    rebuild();
}

void RooflinePage::clearMeasuredPoints() {
    m_sweeps.clear();
    rebuild();
}

void RooflinePage::setInferenceSetting(const InferenceInput& input, const InferenceResult& result) {
    const bool isDefault = input == defaultRooflineInference();
    m_inference = input;
    m_inferenceModel = isDefault ? tr("Llama 3 8B") : tr("the Inference tab's model");
    m_inferenceResult = result;
    m_inferenceText =
        (isDefault ? tr("Inference points (diamonds): Llama 3 8B on H100-SXM, bf16 weights and KV cache, "
                        "context 8192, batch 1: the Inference tab's opening setting. ")
                   : tr("Inference points (diamonds): the Inference tab's setting on %1. ")
                         .arg(toQString(input.gpu))) +
        tr("Decode at %1 FLOPs/byte is %2-bound; both points are the model's roofline lower bounds, so they "
           "sit on %3's roof by construction.")
            .arg(toQString(formatNumber(m_inferenceResult->arithmeticIntensity.value)),
                 toQString(m_inferenceResult->bound), toQString(input.gpu));
    rebuild();
}

QString RooflinePage::aboveRoofMessage() const {
    return m_aboveRoof->isHidden() ? QString() : m_aboveRoof->text();
}

QString RooflinePage::roofNote() const {
    return m_roofNote->text();
}

void RooflinePage::rebuild() {
    const std::string dev = device();
    const ComputeType type = dtype();
    const bool cpu = dev == kCpu;
    m_measure->setVisible(cpu);
    // Only while a measurement runs: beside "Measure again" in presentation type, a disabled Cancel made
    // the row 1050 px wide, past a 1024×768 projector.
    m_cancel->setVisible(cpu && m_measuring);
    m_measure->setEnabled(!m_measuring);
    m_measure->setText(cpu && m_cpuRoofs.contains(type) ? tr("Measure again") : tr("Measure"));
    m_measure->setToolTip(tr("Measures this CPU's peak (FMA loop) and memory bandwidth (STREAM-style triad) "
                             "for the chosen type, as napkin-cli roofline --device cpu does"));
    std::string whyNot;
    m_roof = roofFor(dev, type, &whyNot);

    RooflineChartData data;
    if (m_roof) {
        data.roof =
            RooflineChartData::Roof{m_roof->peakFlopsPerSecond, m_roof->bandwidthBytesPerSecond,
                                    tr("%1 %2").arg(toQString(m_roof->device), toQString(m_roof->dtype))};
        const Roofline& r = *m_roof;
        const QString sources =
            r.peakSource == r.bandwidthSource
                ? tr("Both from the %1").arg(toQString(r.peakSource))
                : tr("Peak: %1. Bandwidth: %2").arg(toQString(r.peakSource), toQString(r.bandwidthSource));
        m_roofNote->setText(tr("Roof of %1 in %2: peak %3, bandwidth %4/s, ridge at %5 FLOPs/byte. %6.")
                                .arg(toQString(r.device), toQString(r.dtype),
                                     toQString(formatFlops(r.peakFlopsPerSecond, true)),
                                     toQString(formatBytes(r.bandwidthBytesPerSecond)),
                                     toQString(formatNumber(r.ridgeFlopsPerByte())), sources));
    } else {
        data.note = cpu ? tr("this CPU: not measured") : tr("no roof: %1").arg(toQString(whyNot));
        m_roofNote->setText(
            cpu ? tr("This CPU: not measured. Its %1 roof needs a measured peak and memory "
                     "bandwidth: press Measure (a few seconds); no figure is shown until then.")
                      .arg(toQString(computeTypeName(type)))
                : tr("No roof: %1.").arg(toQString(whyNot)));
    }

    const DrawnRoof drawn{dev, type};
    const RoofFor roofs = [this](const std::string& d, ComputeType t, std::string* why) {
        return roofFor(d, t, why);
    };
    QStringList above;
    int measured = 0, grey = 0;
    for (const MatmulSweep& sweep : m_sweeps)
        for (RooflineChartData::Point& p : sweepPoints(sweep, drawn, roofs)) {
            ++measured;
            if (p.style == RooflineChartData::Style::aboveRoof)
                above << tr("%1 on %2 (%3)")
                             .arg(p.label, toQString(sweep.device.name),
                                  toQString(formatFlops(p.flopsPerSecond, true)));
            if (p.style == RooflineChartData::Style::otherRoof)
                ++grey;
            data.points.push_back(std::move(p));
        }
    // The inference points are lower bounds on their own GPU's roof: drawn on that roof only (on another
    // device's axes they would read as that device's).
    const bool inferenceHere = m_inferenceResult && dev == m_inference.gpu;
    if (inferenceHere)
        for (RooflineChartData::Point& p : inferencePoints(m_inference, *m_inferenceResult, m_inferenceModel))
            data.points.push_back(std::move(p));
    m_inferenceNote->setText(
        m_inferenceText +
        (inferenceHere
             ? QString()
             : tr(" Not drawn on this roof: choose %1 to see them.").arg(toQString(m_inference.gpu))));

    m_aboveRoof->setText(
        above.isEmpty()
            ? QString()
            : tr("above the roof: a measurement or unit error — %1").arg(above.join(QStringLiteral("; "))));
    m_aboveRoof->setVisible(!above.isEmpty());
    m_pointsNote->setText(
        measured == 0
            ? tr("No measured points yet: run a matmul sweep on the Benchmarks tab and its cases appear here "
                 "at their arithmetic intensity (A, B and C read or written once each).")
            : tr("%n measured GEMM(s). ", nullptr, measured) +
                  (grey
                       ? tr("%n in grey: measured on another device or in another type than the roof drawn "
                            "(each is still checked against its own roof where that is known; hover for it).",
                            nullptr, grey)
                       : QString()));
    m_chart->setData(data);
    m_chart->setSettingsCaption(tr("%1 · %2").arg(m_device->currentText(), m_dtype->currentText()));
    m_explain->setHtml(explainRoofline(m_roof, inferenceHere ? &*m_inferenceResult : nullptr));
}

// --- scenario: the page's controls to napkin::RooflineScenario and back ---

RooflineScenario RooflinePage::scenario() const {
    return {device(), dtype()};
}

QStringList RooflinePage::applyScenario(const RooflineScenario& s) {
    QStringList warnings;
    const int index = m_device->findData(toQString(s.device));
    if (index < 0)
        warnings << tr("roofline.device: '%1' is not offered here; keeping %2")
                        .arg(toQString(s.device), m_device->currentText());
    else
        m_device->setCurrentIndex(index);
    const int type = m_dtype->findData(static_cast<int>(s.dtype));
    if (type < 0)
        warnings << tr("roofline.dtype: '%1' is not offered here; keeping %2")
                        .arg(toQString(computeTypeName(s.dtype)), m_dtype->currentText());
    else
        m_dtype->setCurrentIndex(type);
    rebuild();
    return warnings;
}

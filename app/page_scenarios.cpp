// The scenario mapping of every page: each page's controls to its section of napkin::Scenario and
// back. Kept in one file so that what a scenario file holds can be checked against the pages at a
// glance; the file format itself (JSON, versions, validation) is the engine's (engine/scenario.h).
#include "app/accounting_controls.h"
#include "app/accounting_page.h"
#include "app/benchmarks_page.h"
#include "app/data_lesson_panel.h"
#include "app/determinism_panel.h"
#include "app/init_lesson_panel.h"
#include "app/mixed_precision_panel.h"
#include "app/number_formats_page.h"
#include "app/presets.h"
#include "app/tensor_page.h"
#include "app/training_page.h"
#include "widgets/log_slider_field.h"
#include "widgets/number_field.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>

#include <algorithm>
#include <bit>

using namespace napkin;

namespace {

QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

template <typename Enum> void selectEnum(QComboBox* box, Enum value) {
    box->setCurrentIndex(box->findData(static_cast<int>(value)));
}

} // namespace

// --- accounting ---

AccountingScenario AccountingControls::fieldValues() const {
    AccountingScenario s;
    s.input = input();
    // input() answers what to account for; a scenario also keeps what the hidden rows hold.
    s.input.model.seq = m_seq->value();
    s.tokensShown = m_tokens->value();
    return s;
}

void AccountingControls::setFieldValues(const AccountingScenario& values) {
    const AccountingInput& in = values.input;
    setInput(in); // the selected kind's fields, the check boxes and the combo boxes
    m_updating = true;
    m_params->setValue(in.model.parameters);
    m_dim->setValue(in.model.dim);
    m_layers->setValue(in.model.layers);
    m_out->setValue(in.model.out);
    m_dModel->setValue(in.model.dModel);
    m_heads->setValue(in.model.heads);
    m_vocab->setValue(in.model.vocab);
    m_seq->setValue(in.model.seq);
    m_ffn->setValue(in.model.ffnMult);
    m_tokens->setValue(in.trainingTokens.value_or(values.tokensShown));
    m_updating = false;
}

AccountingScenario AccountingPage::scenario() const {
    AccountingScenario s = m_controls->fieldValues();
    s.binaryUnits = static_cast<ByteUnits>(m_units->currentData().toInt()) == ByteUnits::binary;
    s.preset = m_presets->currentData().toString().toStdString();
    return s;
}

QStringList AccountingPage::applyScenario(const AccountingScenario& s) {
    QStringList warnings;
    m_controls->setFieldValues(s);
    const int preset = s.preset.empty() ? 0 : m_presets->findData(QString::fromStdString(s.preset));
    if (preset < 0)
        warnings << tr("accounting.preset: no preset '%1' in this version; none shown")
                        .arg(QString::fromStdString(s.preset));
    m_presets->setCurrentIndex(std::max(0, preset)); // the box only; the controls hold the file's values
    const QSignalBlocker blockUnits(m_units);
    setByteUnits(s.binaryUnits ? ByteUnits::binary : ByteUnits::decimal); // recomputes
    return warnings;
}

// --- number formats ---

FormatsScenario NumberFormatsPage::scenario() const {
    FormatsScenario s;
    s.value = m_value;
    s.saturate = m_saturate->isChecked();
    s.tensorShape = m_shapeEdit->text().toStdString();
    if (m_pinned) {
        s.pinnedFormat = m_pinned->first;
        s.pinnedBits = m_pinned->second;
    }
    return s;
}

void NumberFormatsPage::applyScenario(const FormatsScenario& s) {
    {
        const QSignalBlocker block(m_saturate);
        m_saturate->setChecked(s.saturate);
    }
    m_shapeEdit->setText(QString::fromStdString(s.tensorShape));
    m_value = s.value;
    m_pinned.reset();
    if (s.pinnedFormat)
        m_pinned = std::make_pair(*s.pinnedFormat, maskFloatBits(*s.pinnedFormat, s.pinnedBits));
    m_valueError->hide();
    showValueText();
    refresh();
    refreshTensorCost();
}

// --- tensor layout ---

TensorScenario TensorPage::scenario() const {
    TensorScenario s;
    s.shape = shapeEdit_->text().toStdString();
    s.dtype = dtypeBox_->currentText().toStdString();
    s.expression = expressionEdit_->text().toStdString();
    const int row = steps_->currentRow();
    s.step = row == static_cast<int>(evaluation_.steps.size()) - 1 ? -1 : row;
    return s;
}

QStringList TensorPage::applyScenario(const TensorScenario& s) {
    QStringList warnings;
    {
        const QSignalBlocker blockShape(shapeEdit_);
        const QSignalBlocker blockExpression(expressionEdit_);
        const QSignalBlocker blockDtype(dtypeBox_);
        shapeEdit_->setText(QString::fromStdString(s.shape));
        expressionEdit_->setText(QString::fromStdString(s.expression));
        const int dtype = dtypeBox_->findText(QString::fromStdString(s.dtype));
        if (dtype < 0)
            warnings << tr("tensor.dtype: '%1' is not offered here; showing %2")
                            .arg(QString::fromStdString(s.dtype), dtypeBox_->currentText());
        else
            dtypeBox_->setCurrentIndex(dtype);
    }
    recompute(); // shows the last step
    if (s.step >= static_cast<int>(evaluation_.steps.size()))
        warnings << tr("tensor.step: the chain has %1 steps; showing the last").arg(evaluation_.steps.size());
    else if (s.step >= 0)
        steps_->setCurrentRow(s.step); // showStep through currentRowChanged
    return warnings;
}

// --- benchmarks ---

BenchmarksScenario BenchmarksPage::scenario() const {
    BenchmarksScenario s;
    s.device = m_device->currentData().toString().toStdString();
    s.dtypes.clear();
    for (BenchDtype d : allBenchDtypes()) // a fixed order, so that equal pages write equal files
        if (const auto it = m_dtypes.find(d); it != m_dtypes.end() && it->second->isChecked())
            s.dtypes.push_back(d);
    s.sizes = m_sizes->text().toStdString();
    s.dim = m_dim->value();
    s.layers = m_layers->value();
    s.batch = m_batch->value();
    s.steps = m_steps->value();
    s.optimizer = static_cast<OptimizerKind>(m_optimizer->currentData().toInt());
    return s;
}

QStringList BenchmarksPage::applyScenario(const BenchmarksScenario& s) {
    QStringList warnings;
    const int device = m_device->findData(QString::fromStdString(s.device));
    // Disabled entries are backends listed but not usable here (no GPU, not built): keep the current one.
    if (device < 0 || !(m_device->model()->flags(m_device->model()->index(device, 0)) & Qt::ItemIsEnabled))
        warnings << tr("benchmarks.device: '%1' is not available here; keeping %2")
                        .arg(QString::fromStdString(s.device), m_device->currentText());
    else
        m_device->setCurrentIndex(device);
    for (BenchDtype d : s.dtypes)
        if (!m_dtypes.contains(d))
            warnings << tr("benchmarks.dtypes: %1 has no tick box on this page; ignored")
                            .arg(q(benchDtypeName(d)));
    for (const auto& [dtype, check] : m_dtypes)
        check->setChecked(std::find(s.dtypes.begin(), s.dtypes.end(), dtype) != s.dtypes.end());
    m_sizes->setText(QString::fromStdString(s.sizes));
    m_dim->setValue(static_cast<int>(s.dim));
    m_layers->setValue(static_cast<int>(s.layers));
    m_batch->setValue(static_cast<int>(s.batch));
    m_steps->setValue(static_cast<int>(s.steps));
    selectEnum(m_optimizer, s.optimizer);
    return warnings;
}

// --- training ---

TrainingScenario::Init InitLessonPanel::scenario() const {
    const InitStdConfig c = config();
    return {c.dim, c.layers, static_cast<long>(c.seed)};
}

void InitLessonPanel::applyScenario(const TrainingScenario::Init& s) {
    if (s == scenario())
        return; // nothing to recompute
    {
        const QSignalBlocker blockDim(m_dim);
        const QSignalBlocker blockLayers(m_layers);
        const QSignalBlocker blockSeed(m_seed);
        m_dim->setValue(std::countr_zero(static_cast<unsigned long>(s.dim))); // D = 2^slider
        m_layers->setValue(static_cast<int>(s.layers));
        m_seed->setValue(static_cast<int>(s.seed));
    }
    recompute(); // once, on the runner's worker
}

TrainingScenario::Determinism DeterminismPanel::scenario() const {
    TrainingScenario::Determinism s;
    s.datasetSeed = m_taskSeed->value();
    s.steps = m_steps->value();
    for (int run = 0; run < 2; ++run) {
        s.initSeed[run] = m_seeds[run][0]->value();
        s.dataSeed[run] = m_seeds[run][1]->value();
    }
    return s;
}

void DeterminismPanel::applyScenario(const TrainingScenario::Determinism& s) {
    if (s == scenario())
        return;
    const auto set = [](QSpinBox* box, long value) {
        const QSignalBlocker block(box);
        box->setValue(static_cast<int>(value));
    };
    set(m_taskSeed, s.datasetSeed);
    set(m_steps, s.steps);
    for (int run = 0; run < 2; ++run) {
        set(m_seeds[run][0], s.initSeed[run]);
        set(m_seeds[run][1], s.dataSeed[run]);
    }
    rerun(); // once, on the runner's worker
}

TrainingScenario::Data DataLessonPanel::scenario() const {
    TrainingScenario::Data s;
    s.path = m_path->text() == demoPath() ? std::string() : m_path->text().toStdString();
    s.tokenType = m_dtype->currentText().toStdString();
    s.demoMegabytes = m_megabytes->value();
    s.batch = m_batch->value();
    s.context = m_context->value();
    s.batches = m_batches->value();
    s.seed = m_seed->value();
    return s;
}

QStringList DataLessonPanel::applyScenario(const TrainingScenario::Data& s) {
    QStringList warnings;
    const bool moved = !(s == scenario());
    const QString path = s.path.empty() ? demoPath() : QString::fromStdString(s.path);
    m_path->setText(path);
    const int type = m_dtype->findText(q(s.tokenType));
    if (type >= 0)
        m_dtype->setCurrentIndex(type);
    else // the loader only accepts the box's names
        warnings << tr("training.data.token_type: '%1' is not offered here; showing %2")
                        .arg(q(s.tokenType), m_dtype->currentText());
    m_megabytes->setValue(static_cast<int>(s.demoMegabytes));
    m_batch->setValue(static_cast<int>(s.batch));
    m_context->setValue(static_cast<int>(s.context));
    m_batches->setValue(static_cast<int>(s.batches));
    m_seed->setValue(static_cast<int>(s.seed));
    if (!QFileInfo::exists(path)) {
        // The demo file is made on demand; any other file may live on the machine that saved the scenario.
        if (!s.path.empty())
            warnings << tr("training.data.path: '%1' does not exist here; choose a token file or generate "
                           "a demo file there")
                            .arg(path);
    } else if (moved) {
        draw(); // maps the file on the runner's worker
    }
    return warnings;
}

TrainingScenario::MixedPrecision MixedPrecisionPanel::scenario() const {
    return {m_steps->value()};
}

void MixedPrecisionPanel::applyScenario(const TrainingScenario::MixedPrecision& s) {
    if (s == scenario())
        return;
    m_steps->setValue(static_cast<int>(s.steps));
    run(); // on the runner's worker; the results shown so far were for the old step count
}

namespace {
// The lesson tabs' order (training_page.cpp); the scenario names the lesson, not its position.
constexpr TrainingLesson kLessonTabs[] = {TrainingLesson::init, TrainingLesson::determinism,
                                          TrainingLesson::data, TrainingLesson::mixedPrecision};
} // namespace

TrainingScenario TrainingPage::scenario() const {
    TrainingScenario s;
    const int tab = std::clamp(m_lessons->currentIndex(), 0, static_cast<int>(std::size(kLessonTabs)) - 1);
    s.lesson = kLessonTabs[tab];
    s.init = m_init->scenario();
    s.determinism = m_determinism->scenario();
    s.data = m_data->scenario();
    s.mixedPrecision = m_mixed->scenario();
    return s;
}

QStringList TrainingPage::applyScenario(const TrainingScenario& s) {
    m_init->applyScenario(s.init);
    m_determinism->applyScenario(s.determinism);
    QStringList warnings = m_data->applyScenario(s.data);
    m_mixed->applyScenario(s.mixedPrecision);
    for (int i = 0; i < static_cast<int>(std::size(kLessonTabs)); ++i)
        if (kLessonTabs[i] == s.lesson)
            m_lessons->setCurrentIndex(i);
    return warnings;
}

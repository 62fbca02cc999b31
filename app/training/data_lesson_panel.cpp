// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/training/data_lesson_panel.h"

#include "app/jobs/task_runner.h"
#include "app/training/lesson_export.h"
#include "engine/lessons/batch_sampler.h"
#include "engine/lessons/token_file_generator.h"
#include "engine/numerics/quantity_format.h"
#include "engine/scenario/control_ranges.h"
#include "widgets/controls/spin_box_range.h"
#include "widgets/controls/text_tone.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

#include <stdexcept>

using namespace napkin;

namespace {

struct DrawResult {
    std::uint64_t fileBytes = 0, tokens = 0, residentBefore = 0, residentAfter = 0, pageBytes = 0;
    long batches = 0;
    TokenBatch batch;
    DatasetSizing here, lecture;
};

QString bytes(double b) {
    return QString::fromStdString(formatBytes(b));
}

// The lecture: "you don't want to load the entire data into memory at once (LLaMA data is 2.8TB)".
constexpr double kLectureBytes = 2.8e12;

} // namespace

DataLessonPanel::DataLessonPanel(QWidget* parent)
    : QWidget(parent)
    , m_path(new QLineEdit(this))
    , m_dtype(new QComboBox(this))
    , m_megabytes(new QSpinBox(this))
    , m_batch(new QSpinBox(this))
    , m_context(new QSpinBox(this))
    , m_batches(new QSpinBox(this))
    , m_seed(new QSpinBox(this))
    , m_generate(new QPushButton(tr("Generate demo file"), this))
    , m_draw(new QPushButton(tr("Draw batch"), this))
    , m_facts(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_runner(new TaskRunner(this)) {
    m_path->setText(demoPath());
    for (TokenType type : allTokenTypes())
        m_dtype->addItem(QString::fromUtf8(tokenTypeName(type).data(),
                                           static_cast<qsizetype>(tokenTypeName(type).size())));
    const TrainingScenario::Data defaults;
    setRangeOf(m_megabytes, ranges::training::demoMegabytes);
    m_megabytes->setValue(static_cast<int>(defaults.demoMegabytes));
    m_megabytes->setSuffix(tr(" MB"));
    setRangeOf(m_batch, ranges::training::dataBatch);
    m_batch->setValue(static_cast<int>(defaults.batch));
    setRangeOf(m_context, ranges::training::dataContext);
    m_context->setValue(static_cast<int>(defaults.context));
    setRangeOf(m_batches, ranges::training::dataBatches);
    m_batches->setValue(static_cast<int>(defaults.batches));
    setRangeOf(m_seed, ranges::seed);
    m_seed->setValue(static_cast<int>(defaults.seed));
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* exportButton = new QPushButton(tr("Export PNG…"), this);

    auto* grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("Token file"), this), 0, 0);
    grid->addWidget(m_path, 0, 1, 1, 7);
    grid->addWidget(browse, 0, 8);
    grid->addWidget(new QLabel(tr("Tokens"), this), 1, 0);
    grid->addWidget(m_dtype, 1, 1);
    grid->addWidget(new QLabel(tr("Demo size"), this), 1, 2);
    grid->addWidget(m_megabytes, 1, 3);
    grid->addWidget(m_generate, 1, 4);
    grid->addWidget(new QLabel(tr("Batch B"), this), 2, 0);
    grid->addWidget(m_batch, 2, 1);
    grid->addWidget(new QLabel(tr("Context L"), this), 2, 2);
    grid->addWidget(m_context, 2, 3);
    grid->addWidget(new QLabel(tr("Batches"), this), 2, 4);
    grid->addWidget(m_batches, 2, 5);
    grid->addWidget(new QLabel(tr("Seed"), this), 3, 0);
    grid->addWidget(m_seed, 3, 1);
    grid->addWidget(m_draw, 3, 4);
    grid->addWidget(exportButton, 3, 8);
    grid->setColumnStretch(7, 1);

    auto* intro =
        new QLabel(tr("A tokenized corpus is one flat file of integers. It is memory-mapped, never read "
                      "whole: get_batch draws B offsets uniformly in [0, N − L) and copies B windows of L "
                      "tokens; only the pages those windows touch are read from disk."),
                   this);
    intro->setWordWrap(true);
    m_facts->setWordWrap(true);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_facts->setText(tr("Generate a demo file or choose a token file, then draw a batch."));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(grid);
    layout->addWidget(m_facts);
    layout->addWidget(m_table, 1);

    connect(browse, &QPushButton::clicked, this, &DataLessonPanel::browse);
    connect(m_generate, &QPushButton::clicked, this, [this] { generate(m_megabytes->value()); });
    connect(m_draw, &QPushButton::clicked, this, &DataLessonPanel::draw);
    connect(exportButton, &QPushButton::clicked, this,
            [this] { exportLessonWidget(this, *this, QStringLiteral("data-loading")); });
    // A failure (no file, a file too short) reads as an error, red like every refused field's message.
    connect(m_runner, &TaskRunner::failed, this, [this](const QString& message) {
        setTextTone(m_facts, TextTone::alert);
        m_facts->setText(message);
    });
    connect(m_runner, &TaskRunner::busyChanged, this, [this](bool busy) {
        if (busy)
            clearTextTone(m_facts);
    });
    connect(m_runner, &TaskRunner::busyChanged, this, [this](bool busy) {
        m_generate->setEnabled(!busy);
        m_draw->setEnabled(!busy);
    });
}

QString DataLessonPanel::demoPath() {
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    return QDir(cache.isEmpty() ? QDir::tempPath() : cache)
        .filePath(QStringLiteral("napkin-demo-tokens.bin"));
}

void DataLessonPanel::browse() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Token file"), m_path->text());
    if (!path.isEmpty()) {
        m_path->setText(path);
        draw();
    }
}

void DataLessonPanel::generate(int megabytes) {
    const std::string path = m_path->text().toStdString();
    const TokenType type =
        tokenTypeFromName(m_dtype->currentText().toStdString()).value_or(TokenType::uint16);
    const std::uint64_t tokens = static_cast<std::uint64_t>(megabytes) * 1000000ull / tokenBytes(type);
    const auto seed = static_cast<std::uint64_t>(m_seed->value());
    QDir().mkpath(QFileInfo(m_path->text()).absolutePath());
    m_facts->setText(tr("writing %1 …").arg(bytes(static_cast<double>(tokens * tokenBytes(type)))));
    m_runner->start([this, path, type, tokens, seed](const TaskContext& task) -> TaskRunner::Deliver {
        writeDemoTokenFile(path, tokens, type, seed, [&task](double) { return task.keepGoing(); });
        return [this] { draw(); };
    });
}

void DataLessonPanel::draw() {
    const std::string path = m_path->text().toStdString();
    const TokenType type =
        tokenTypeFromName(m_dtype->currentText().toStdString()).value_or(TokenType::uint16);
    const long B = m_batch->value(), L = m_context->value(), batches = m_batches->value();
    const auto seed = static_cast<std::uint64_t>(m_seed->value());
    m_runner->start([this, path, type, B, L, batches, seed](const TaskContext& task) -> TaskRunner::Deliver {
        const TokenDataset data(path, type);
        DrawResult r;
        r.fileBytes = data.fileBytes();
        r.tokens = data.tokens();
        r.pageBytes = TokenDataset::pageBytes();
        r.residentBefore = data.residentBytes();
        BatchSampler sampler(data, B, L, seed);
        for (long i = 0; i < batches && task.keepGoing(); ++i) {
            r.batch = sampler.next();
            r.batches = i + 1;
        }
        r.residentAfter = data.residentBytes();
        const auto page = static_cast<double>(r.pageBytes);
        r.here = sizeDataset(static_cast<double>(r.fileBytes), type, B, L, page);
        r.lecture = sizeDataset(kLectureBytes, TokenType::int32, B, L, page);
        return [this, r = std::move(r)] {
            m_facts->setText(tr("File: %1 (%2 tokens). Resident (mincore): %3 before, %4 after %5 batch(es) "
                                "of %6×%7 — %8% of the "
                                "file; one batch copies %9 and touches at most %10 pages of %11. The "
                                "lecture's 2.8 TB of int32 tokens "
                                "(%12 tokens) would be mapped the same way: resident memory grows with the "
                                "batches drawn, not the file.")
                                 .arg(bytes(static_cast<double>(r.fileBytes)), QString::number(r.tokens),
                                      bytes(static_cast<double>(r.residentBefore)),
                                      bytes(static_cast<double>(r.residentAfter)), QString::number(r.batches),
                                      QString::number(r.batch.batch), QString::number(r.batch.context),
                                      QString::number(100.0 * static_cast<double>(r.residentAfter) /
                                                          static_cast<double>(r.fileBytes),
                                                      'g', 3),
                                      bytes(r.here.batchBytes))
                                 .arg(r.here.batchPagesAtMost)
                                 .arg(bytes(static_cast<double>(r.pageBytes)),
                                      QString::fromStdString(formatNumber(r.lecture.tokens))));
            const long L = r.batch.context;
            const int shown = static_cast<int>(std::min<long>(L, 32));
            m_table->clear();
            m_table->setRowCount(static_cast<int>(r.batch.batch));
            m_table->setColumnCount(shown + 1);
            QStringList headers{tr("offset")};
            for (int i = 0; i < shown; ++i)
                headers << QString::number(i);
            m_table->setHorizontalHeaderLabels(headers);
            for (long b = 0; b < r.batch.batch; ++b) {
                const int row = static_cast<int>(b);
                m_table->setItem(
                    row, 0,
                    new QTableWidgetItem(QString::number(r.batch.offsets[static_cast<std::size_t>(b)])));
                for (int i = 0; i < shown; ++i)
                    m_table->setItem(row, i + 1,
                                     new QTableWidgetItem(QString::number(
                                         r.batch.tokens[static_cast<std::size_t>(b * L + i)])));
            }
            m_table->resizeColumnsToContents();
            emit updated();
        };
    });
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

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
    const int type = m_dtype->findText(QString::fromStdString(s.tokenType));
    if (type >= 0)
        m_dtype->setCurrentIndex(type);
    else // the loader only accepts the box's names
        warnings << tr("training.data.token_type: '%1' is not offered here; showing %2")
                        .arg(QString::fromStdString(s.tokenType), m_dtype->currentText());
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

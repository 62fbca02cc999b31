// SPDX-License-Identifier: GPL-3.0-or-later
// The Benchmarks page's "Compare recipes" driven through its real button on the real CPU backend: a tiny
// Cruncher (D 16, L 2, B 8, 4 steps) in fp32 and mixed-bf16 gives a table row per recipe whose figures are
// the runs' own, runs equal to what runCruncherRecipes returns for the same request (the seeds make the
// losses and memory the same), one loss curve per recipe named in the legend, and tf32 and mixed-fp16 (CUDA
// only) listed with the backend's reason; a cancel keeps the finished run; the exports are napkin-cli's
// documents; and the panel's picture has every curve inside the plot. With NAPKIN_SCREENSHOT_DIR set, the
// panel is also written there as a PNG (for eyes, not asserts).
#include "app/benchmarks/backend_cache.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/benchmarks/recipe_comparison_panel.h"
#include "app/benchmarks/training_run_panel.h"
#include "app/jobs/task_runner.h"
#include "cli/cli_app.h"
#include "engine/benchmarks/training_recipes.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/csv_values.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/series_chart.h"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

QPushButton* button(const QWidget& root, const QString& text) {
    for (auto* b : root.findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

QString cell(const QTableWidget& table, int row, int column) {
    const QTableWidgetItem* item = table.item(row, column);
    return item ? item->text() : QString();
}

int rowOf(const QTableWidget& table, const QString& recipe) {
    for (int r = 0; r < table.rowCount(); ++r)
        if (cell(table, r, RecipeComparisonPanel::recipe) == recipe)
            return r;
    return -1;
}

// The keys of a JSON document, every level, array elements by their first one.
std::set<QString> keysOf(const QJsonValue& value, const QString& path = {}) {
    std::set<QString> keys;
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString key = path + QLatin1Char('.') + it.key();
            keys.insert(key);
            keys.merge(keysOf(it.value(), key));
        }
    } else if (value.isArray() && !value.toArray().isEmpty()) {
        keys.merge(keysOf(value.toArray().first(), path + QStringLiteral("[]")));
    }
    return keys;
}

// Whether `pixel` is `color` or a close shade of it (the line's edges are blended with the paper).
bool near(QRgb pixel, const QColor& color) {
    return std::abs(qRed(pixel) - color.red()) + std::abs(qGreen(pixel) - color.green()) +
               std::abs(qBlue(pixel) - color.blue()) <=
           30;
}

} // namespace

class TestRecipeComparison : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void refusedRecipesAreListedBeforeARun();
    void tableAndCurvesAreTheEnginesRuns();
    void exportsAreTheCliDocuments();
    void pictureHasEveryCurveInsideThePlot();
    void eigenRunsFp32AloneAndSaysWhy();
    void cancelKeepsTheFinishedRun();
    void cleanupTestCase();

private:
    void setSetup(int dim, int layers, int batch, int steps) {
        auto spin = [this](const char* name) {
            return m_page->findChild<QSpinBox*>(QString::fromLatin1(name));
        };
        spin("dim")->setValue(dim);
        spin("layers")->setValue(layers);
        spin("batch")->setValue(batch);
        spin("steps")->setValue(steps);
    }
    void selectLibrary(const QString& name) {
        auto* library = m_page->findChild<QComboBox*>(QStringLiteral("cpuBackend"));
        library->setCurrentIndex(library->findText(name));
    }
    QString defaultLibrary() const {
        return QString::fromStdString(std::string(napkin::cpuBackendKindName(napkin::defaultCpuBackend())));
    }
    // The backend's reason for `recipe`, asked as the CLI asks it.
    std::string reasonFor(const std::string& recipe) {
        napkin::CruncherConfig c;
        napkin::setTrainingRecipe(c, recipe);
        return m_page->backends().backendFor("cpu").unsupportedRecipeReason(c);
    }
    std::unique_ptr<BenchmarksPage> m_page; // one page: the FMA peak is measured once
    std::vector<QString> m_phases;          // the progress the page showed during the tiny comparison
    std::vector<double> m_fractions;
};

void TestRecipeComparison::initTestCase() {
    if (napkin::defaultCpuBackend() != napkin::CpuBackendKind::onednn)
        QSKIP("this build has no oneDNN: mixed-bf16 needs it");
    m_page = std::make_unique<BenchmarksPage>();
}

void TestRecipeComparison::cleanupTestCase() {
    m_page.reset();
}

// Before any run, the table names all four recipes; tf32 and mixed-fp16 are refused on the CPU with the
// backend's own reason, fp32 and mixed-bf16 wait for a run.
void TestRecipeComparison::refusedRecipesAreListedBeforeARun() {
    const QTableWidget& table = *m_page->recipePanel()->table();
    QCOMPARE(table.rowCount(), 4);
    for (const char* name : {"tf32", "mixed-fp16"}) {
        const int row = rowOf(table, QLatin1String(name));
        QVERIFY2(row >= 0, name);
        const std::string why = reasonFor(name);
        QVERIFY(!why.empty());
        QCOMPARE(cell(table, row, RecipeComparisonPanel::status),
                 QStringLiteral("refused: ") + QString::fromStdString(why));
    }
    QVERIFY(cell(table, rowOf(table, QStringLiteral("tf32")), RecipeComparisonPanel::status)
                .contains(QStringLiteral("tensor cores")));
    QCOMPARE(cell(table, rowOf(table, QStringLiteral("fp32")), RecipeComparisonPanel::status),
             QStringLiteral("not run yet"));
    QVERIFY(m_page->recipePanel()->chart()->curves().empty());
}

void TestRecipeComparison::tableAndCurvesAreTheEnginesRuns() {
    setSetup(16, 2, 8, 4);
    connect(m_page->runner(), &TaskRunner::progress, this, [this](const TaskProgress& p) {
        m_phases.push_back(p.phase);
        m_fractions.push_back(p.fraction);
    });
    QPushButton* compare = button(*m_page, QStringLiteral("Compare recipes"));
    QVERIFY(compare && compare->isEnabled());
    QTest::mouseClick(compare, Qt::LeftButton);
    QVERIFY(m_page->isRunning());
    QVERIFY(!compare->isEnabled() && !button(*m_page, QStringLiteral("Train"))->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!m_page->isRunning(), 60000);
    disconnect(m_page->runner(), &TaskRunner::progress, this, nullptr);
    QVERIFY(compare->isEnabled());
    const auto& comparison = m_page->recipePanel()->comparison();
    QVERIFY(comparison);
    QCOMPARE(comparison->recipes, (std::vector<std::string>{"fp32", "mixed-bf16"}));
    QCOMPARE(comparison->runs.size(), std::size_t{2});

    // The same request through the engine, on the page's own backend (the same threads): equal losses
    // and memory, each recipe from the same seeds.
    const napkin::TrainingRunRequest request = m_page->trainingPanel()->request();
    const std::vector<napkin::TrainingRun> engine =
        napkin::runCruncherRecipes(m_page->backends().backendFor("cpu"), request, {"fp32", "mixed-bf16"});
    QCOMPARE(engine.size(), std::size_t{2});
    const QTableWidget& table = *m_page->recipePanel()->table();
    QCOMPARE(table.rowCount(), 4);
    const std::vector<LossCurve>& curves = m_page->recipePanel()->chart()->curves();
    QCOMPARE(curves.size(), std::size_t{2});
    for (std::size_t i = 0; i < engine.size(); ++i) {
        const napkin::TrainingRun& run = comparison->runs[i];
        const napkin::TrainingRun& want = engine[i];
        const QString name = QString::fromStdString(napkin::trainingRecipeName(want.request.config));
        QCOMPARE(QString::fromStdString(napkin::trainingRecipeName(run.request.config)), name);
        QCOMPARE(run.losses.size(), std::size_t{4});
        QCOMPARE(run.losses, want.losses);
        QCOMPARE(run.memory.total.measured, want.memory.total.measured);
        QCOMPARE(run.memory.predictedTimeline.peakBytes, want.memory.predictedTimeline.peakBytes);
        QCOMPARE(run.memory.peakMeasuredBytes, want.memory.peakMeasuredBytes);
        QCOMPARE(run.memory.peakMeasuredBytes, run.memory.predictedTimeline.peakBytes);
        QCOMPARE(run.mfu.has_value(), want.mfu.has_value());
        // Its row: the run's own figures.
        const int row = rowOf(table, name);
        QVERIFY2(row >= 0, qPrintable(name));
        QCOMPARE(cell(table, row, RecipeComparisonPanel::stepTime),
                 QString::fromStdString(napkin::formatDuration(run.stepTiming.medianSeconds)));
        const QString exact =
            QString::fromStdString(napkin::formatExact(want.memory.predictedTimeline.peakBytes)) + " B: ";
        QVERIFY2(table.item(row, RecipeComparisonPanel::peakPredicted)->toolTip().startsWith(exact),
                 qPrintable(table.item(row, RecipeComparisonPanel::peakPredicted)->toolTip()));
        QVERIFY(table.item(row, RecipeComparisonPanel::peakMeasured)
                    ->toolTip()
                    .startsWith(QString::fromStdString(napkin::formatExact(want.memory.peakMeasuredBytes)) +
                                " B: "));
        QCOMPARE(cell(table, row, RecipeComparisonPanel::finalLoss),
                 QString::number(want.losses.back(), 'g', 4));
        // MFU against the recipe's own peak, that peak named.
        const QString dtype = QString::fromStdString(napkin::trainingComputeDtype(run.request.config));
        if (run.mfu)
            QCOMPARE(cell(table, row, RecipeComparisonPanel::mfu),
                     QStringLiteral("%1 % of %2 (%3)")
                         .arg(*run.mfu * 100, 0, 'g', 3)
                         .arg(QString::fromStdString(napkin::formatFlops(*run.promisedFlopsPerSecond, true)),
                              dtype));
        else
            QVERIFY(cell(table, row, RecipeComparisonPanel::mfu).contains(dtype));
        QCOMPARE(cell(table, row, RecipeComparisonPanel::status), QStringLiteral("done; memory to the byte"));
        // Its curve: named, its losses.
        QCOMPARE(curves[i].name, name);
        QCOMPARE(curves[i].losses, want.losses);
    }
    QVERIFY(cell(table, rowOf(table, QStringLiteral("mixed-bf16")), RecipeComparisonPanel::mfu)
                .contains(QStringLiteral("bf16")));
    // mixed-bf16 holds 2-byte weights and activations where fp32 holds 4: less memory at its peak.
    QVERIFY(comparison->runs[1].memory.peakMeasuredBytes < comparison->runs[0].memory.peakMeasuredBytes);
    QCOMPARE(m_page->recipePanel()->chart()->legendNames(),
             (QStringList{QStringLiteral("fp32"), QStringLiteral("mixed-bf16")}));
    // The refused recipes stay listed, with the reasons of the backend that ran.
    for (const char* name : {"tf32", "mixed-fp16"})
        QCOMPARE(cell(table, rowOf(table, QLatin1String(name)), RecipeComparisonPanel::status),
                 QStringLiteral("refused: ") + QString::fromStdString(reasonFor(name)));
    // The progress named each recipe and its step, and ran once over the whole comparison.
    const auto named = [this](const QString& lead) {
        return std::any_of(m_phases.begin(), m_phases.end(),
                           [&](const QString& p) { return p.startsWith(lead); });
    };
    QVERIFY(named(QStringLiteral("fp32 · step ")));
    QVERIFY(named(QStringLiteral("mixed-bf16 · step ")));
    QVERIFY(std::is_sorted(m_fractions.begin(), m_fractions.end()));
    QVERIFY(m_fractions.back() > 0.5);
    QVERIFY(m_page->findChild<QLabel*>(QStringLiteral("status"))
                ->text()
                .startsWith(QStringLiteral("Recipes compared")));
}

// JSON: napkin-cli bench train --precision fp32,mixed-bf16 --json's document (every key, the same memory);
// CSV: read from that document, a comparison row per run and a loss row per step.
void TestRecipeComparison::exportsAreTheCliDocuments() {
    const RecipeComparisonPanel& panel = *m_page->recipePanel();
    QVERIFY(panel.comparison());
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("recipes.json"));
    QCOMPARE(panel.exportJson(json), QString());
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
    std::ostringstream out, err;
    QCOMPARE(napkin::cli::run({"bench", "train", "--dim", "16", "--layers", "2", "--batch", "8", "--steps",
                               "4", "--precision", "fp32,mixed-bf16", "--json"},
                              out, err),
             0);
    const QJsonObject cli = QJsonDocument::fromJson(QByteArray::fromStdString(out.str())).object();
    QCOMPARE(keysOf(doc), keysOf(cli));
    QCOMPARE(doc[QStringLiteral("recipes")], cli[QStringLiteral("recipes")]);
    for (int i = 0; i < 2; ++i) {
        const QJsonObject ours = doc[QStringLiteral("comparison")].toArray()[i].toObject();
        const QJsonObject theirs = cli[QStringLiteral("comparison")].toArray()[i].toObject();
        for (const char* key : {"recipe", "mfu_dtype", "memory_predicted_bytes", "memory_measured_bytes"})
            QCOMPARE(ours[QLatin1String(key)], theirs[QLatin1String(key)]);
    }

    const QString csvPath = dir.filePath(QStringLiteral("recipes.csv"));
    QCOMPARE(panel.exportCsv(csvPath), QString());
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().split('\n');
    QVERIFY(lines[0].startsWith("section,recipe,"));
    QVERIFY(lines[0].endsWith(",peak_predicted_bytes,peak_measured_bytes"));
    QVERIFY(lines[1].startsWith("comparison,fp32,"));
    QVERIFY(lines[2].startsWith("comparison,mixed-bf16,"));
    QCOMPARE(lines[4], QByteArray("section,recipe,step,loss"));
    const auto& runs = panel.comparison()->runs;
    QCOMPARE(lines[5], "loss,fp32,1," + QByteArray::fromStdString(napkin::csvNumber(runs[0].losses[0])));
    QCOMPARE(lines.count(), 4 + 1 + 8 + 1); // header, 2 runs, blank, header, 8 losses, final newline
    QCOMPARE(panel.exportChartPng(dir.filePath(QStringLiteral("loss.png"))), QString());
    QVERIFY(QImage(dir.filePath(QStringLiteral("loss.png"))).width() == 1600);

    RecipeComparisonPanel fresh; // nothing compared yet: a message, no file
    QVERIFY(!fresh.exportJson(dir.filePath(QStringLiteral("none.json"))).isEmpty());
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("none.json"))));
}

// The panel as a user sees it: the legend names each recipe, whole, and each curve is drawn inside the
// plot (none reaches the plot's edge, where the chart would cut it) and across it to the last step.
void TestRecipeComparison::pictureHasEveryCurveInsideThePlot() {
    RecipeComparisonPanel& panel = *m_page->recipePanel();
    QVERIFY(panel.comparison());
    m_page->resize(1280, 720);
    m_page->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
    LossChart& chart = *panel.chart();
    for (int i = 0; i < 3; ++i) { // ticks fitted to the laid-out axes take a replot or two
        chart.replotNow();
        QCoreApplication::processEvents();
    }
    const QImage picture = panel.grab().toImage();
    if (const QByteArray dir = qgetenv("NAPKIN_SCREENSHOT_DIR"); !dir.isEmpty())
        picture.save(QString::fromLocal8Bit(dir) + QStringLiteral("/recipe-comparison.png"));
    const ChartLayout g = chart.layoutGeometry();
    QCOMPARE(chart.legendNames(), (QStringList{QStringLiteral("fp32"), QStringLiteral("mixed-bf16")}));
    QVERIFY(!g.legend.isEmpty() && g.legend.width() <= chart.width());
    QVERIFY2(g.cutText.isEmpty(), qPrintable(g.cutText.join(QLatin1Char('|'))));
    const QPoint origin = chart.mapTo(&panel, QPoint(0, 0));
    const QRect plot = g.axisRect.translated(origin), legend = g.legend.translated(origin);
    for (const LossCurve& curve : chart.curves()) {
        QRect drawn;
        int inside = 0;
        for (int y = 0; y < picture.height(); ++y)
            for (int x = 0; x < picture.width(); ++x) {
                if (!near(picture.pixel(x, y), curve.color))
                    continue;
                if (plot.contains(x, y)) {
                    ++inside;
                    drawn |= QRect(x, y, 1, 1);
                } else {
                    QVERIFY2(legend.contains(x, y),
                             qPrintable(QStringLiteral("%1's colour at (%2, %3), outside "
                                                       "the plot and legend")
                                            .arg(curve.name)
                                            .arg(x)
                                            .arg(y)));
                }
            }
        QVERIFY2(inside > 20, qPrintable(curve.name + QStringLiteral(": no curve drawn")));
        // Inside, not cut: the curve's points keep off the plot's edges.
        QVERIFY2(drawn.top() > plot.top() && drawn.bottom() < plot.bottom() && drawn.left() > plot.left() &&
                     drawn.right() < plot.right(),
                 qPrintable(QStringLiteral("%1 drawn over (%2, %3)–(%4, %5) in a plot (%6, %7)–(%8, %9)")
                                .arg(curve.name)
                                .arg(drawn.left())
                                .arg(drawn.top())
                                .arg(drawn.right())
                                .arg(drawn.bottom())
                                .arg(plot.left())
                                .arg(plot.top())
                                .arg(plot.right())
                                .arg(plot.bottom())));
        QVERIFY(drawn.right() > plot.left() + plot.width() * 3 / 4); // to the last step
    }
    m_page->hide();
}

// The Eigen library trains fp32 only: the comparison runs fp32 alone and lists the three others with
// Eigen's reasons; the legend names the one curve.
void TestRecipeComparison::eigenRunsFp32AloneAndSaysWhy() {
    selectLibrary(QStringLiteral("eigen"));
    const QTableWidget& table = *m_page->recipePanel()->table();
    QTest::mouseClick(button(*m_page, QStringLiteral("Compare recipes")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!m_page->isRunning(), 60000);
    const auto& comparison = m_page->recipePanel()->comparison();
    QVERIFY(comparison);
    QCOMPARE(comparison->runs.size(), std::size_t{1});
    QCOMPARE(m_page->recipePanel()->chart()->legendNames(), QStringList{QStringLiteral("fp32")});
    napkin::BackendOptions options;
    options.cpuBackend = napkin::CpuBackendKind::eigen; // as the page asks for it
    napkin::BenchmarkBackend& eigen = m_page->backends().backendFor("cpu", options);
    for (const char* name : {"tf32", "mixed-bf16", "mixed-fp16"}) {
        napkin::CruncherConfig c;
        napkin::setTrainingRecipe(c, name);
        const std::string why = eigen.unsupportedRecipeReason(c);
        QVERIFY(!why.empty());
        QCOMPARE(cell(table, rowOf(table, QLatin1String(name)), RecipeComparisonPanel::status),
                 QStringLiteral("refused: ") + QString::fromStdString(why));
    }
    selectLibrary(defaultLibrary());
}

// Cancelled while mixed-bf16 trains: fp32's whole run is kept beside mixed-bf16's partial one, and the
// status says so.
void TestRecipeComparison::cancelKeepsTheFinishedRun() {
    setSetup(256, 4, 64, 300);
    bool cancelled = false;
    connect(m_page->runner(), &TaskRunner::progress, this, [this, &cancelled](const TaskProgress& p) {
        if (!cancelled && p.phase.startsWith(QStringLiteral("mixed-bf16 · "))) {
            cancelled = true;
            QTest::mouseClick(button(*m_page, QStringLiteral("Cancel")), Qt::LeftButton);
        }
    });
    QTest::mouseClick(button(*m_page, QStringLiteral("Compare recipes")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!m_page->isRunning(), 120000);
    disconnect(m_page->runner(), &TaskRunner::progress, this, nullptr);
    QVERIFY(cancelled);
    const auto& comparison = m_page->recipePanel()->comparison();
    QVERIFY(comparison);
    QCOMPARE(comparison->runs.size(), std::size_t{2});
    QVERIFY(!comparison->runs[0].cancelled);
    QCOMPARE(comparison->runs[0].losses.size(), std::size_t{300});
    QVERIFY(comparison->runs[1].cancelled);
    QVERIFY(comparison->runs[1].losses.size() < 300);
    const QTableWidget& table = *m_page->recipePanel()->table();
    QCOMPARE(cell(table, rowOf(table, QStringLiteral("mixed-bf16")), RecipeComparisonPanel::status),
             QStringLiteral("cancelled after %1 of 300 steps").arg(comparison->runs[1].losses.size()));
    QVERIFY(
        cell(table, rowOf(table, QStringLiteral("fp32")), RecipeComparisonPanel::status).startsWith("done"));
    QCOMPARE(m_page->recipePanel()->chart()->curves().size(), std::size_t{2});
    QVERIFY(m_page->findChild<QLabel*>(QStringLiteral("status"))
                ->text()
                .startsWith(QStringLiteral("Cancelled: 2 run(s) kept")));
}

QTEST_MAIN(TestRecipeComparison)
#include "tst_recipe_comparison.moc"

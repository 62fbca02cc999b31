// SPDX-License-Identifier: GPL-3.0-or-later
// The Benchmarks page's predicted step beside the measured one: a profile this process calibrated on the
// CPU (fp32 GEMMs only), chosen through the panel's "Hardware profile…" control, gives a Train run a
// predicted step in its summary and the recipe comparison a line for fp32 with its predicted step, while
// mixed-bf16, which the profile did not measure, says why not. A damaged file, or one of another device,
// changes nothing but the message next to the control (or the run's reason): the profile chosen before
// stays, and the page goes on. No time is asserted: the ratio depends on the machine's load.
#include "app/benchmarks/benchmarks_page.h"
#include "app/hardware/hardware_profile_chooser.h"
#include "app/benchmarks/recipe_comparison_panel.h"
#include "app/benchmarks/training_run_panel.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/calibration_run.h"
#include "engine/compute/cpu_backend_kind.h"

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace napkin;

namespace {

QPushButton* button(const QWidget& root, const QString& text) {
    for (QPushButton* b : root.findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

bool writeText(const QString& path, const std::string& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size());
}

} // namespace

class TestTrainingPrediction : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // the remembered profile goes to a test location
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        // This machine's profile, made here as `napkin-cli calibrate` makes it, on small shapes.
        std::unique_ptr<BenchmarkBackend> backend = makeBackend("cpu");
        QVERIFY(backend);
        CalibrationOptions options;
        options.dtypes = {BenchDtype::fp32};
        options.shapes = {{8, 8, 8}, {32, 32, 32}};
        options.repeats = 1;
        options.bandwidthBytesPerArray = 1 << 20;
        std::string whyNot;
        const std::optional<CalibrationRun> run = runCalibration(*backend, options, &whyNot);
        QVERIFY2(run, whyNot.c_str());
        m_good = m_dir.filePath(QStringLiteral("this-cpu.json"));
        QVERIFY(writeText(m_good, hardwareProfileToJson(run->profile)));
        HardwareProfile gpu = run->profile;
        gpu.device = "H100-SXM";
        m_foreign = m_dir.filePath(QStringLiteral("h100.json"));
        QVERIFY(writeText(m_foreign, hardwareProfileToJson(gpu)));
        m_damaged = m_dir.filePath(QStringLiteral("damaged.json"));
        QVERIFY(writeText(m_damaged, "{\"format\": \"napkin-hardware-profile\", \"version\": 1, \"device\""));
    }

    void cleanupTestCase() { QSettings().clear(); }

    void trainShowsPredictedBesideMeasured() {
        BenchmarksPage page;
        tinyCruncher(page);
        HardwareProfileChooser* chooser = page.trainingPanel()->profileChooser();
        auto* note = chooser->findChild<QLabel*>(QStringLiteral("hardwareProfileNote"));
        QVERIFY(note);
        QVERIFY(!chooser->profile());
        QVERIFY2(note->text().contains(QStringLiteral("No profile")), qPrintable(note->text()));

        QVERIFY(chooser->chooseFile(m_good).isEmpty());
        QVERIFY(chooser->profile());
        QVERIFY2(note->text().contains(QStringLiteral("this-cpu.json")), qPrintable(note->text()));
        QCOMPARE(QSettings().value(QLatin1String(HardwareProfileChooser::kSettingsKey)).toString(), m_good);

        // A damaged file: its message beside the control, and the profile chosen before kept.
        const QString error = chooser->chooseFile(m_damaged);
        QVERIFY(error.contains(QStringLiteral("damaged.json")));
        QVERIFY2(note->text().contains(error) && note->text().contains(QStringLiteral("Still predicting from "
                                                                                      "this-cpu.json")),
                 qPrintable(note->text()));
        QCOMPARE(chooser->path(), m_good);

        train(page);
        const std::optional<TrainingRun>& run = page.trainingPanel()->run();
        QVERIFY(run);
        QVERIFY2(run->predictedStep.predicted, run->predictedStep.whyNot.c_str());
        QVERIFY(run->predictedStep.seconds > 0);
        auto* summary = page.findChild<QLabel*>(QStringLiteral("trainingSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QStringLiteral("step: measured ")) &&
                     summary->text().contains(QStringLiteral(", predicted ")) &&
                     summary->text().contains(QStringLiteral("from ") + m_good),
                 qPrintable(summary->text()));

        // A page opened later starts from the file remembered.
        BenchmarksPage later;
        QCOMPARE(later.trainingPanel()->profileChooser()->path(), m_good);
        QVERIFY(later.trainingPanel()->profileChooser()->profile());
    }

    // A profile of another device reads, but a CPU run is not predicted from it: the reason names the field.
    void profileOfAnotherDeviceSaysWhy() {
        BenchmarksPage page;
        tinyCruncher(page);
        QVERIFY(page.trainingPanel()->profileChooser()->chooseFile(m_foreign).isEmpty());
        train(page);
        const std::optional<TrainingRun>& run = page.trainingPanel()->run();
        QVERIFY(run);
        QVERIFY(!run->predictedStep.predicted);
        QVERIFY2(run->predictedStep.whyNot.find("device: the profile was measured on H100-SXM") !=
                     std::string::npos,
                 run->predictedStep.whyNot.c_str());
        auto* summary = page.findChild<QLabel*>(QStringLiteral("trainingSummary"));
        QVERIFY2(summary->text().contains(QStringLiteral("not predicted: ")), qPrintable(summary->text()));
        page.trainingPanel()->profileChooser()->clear();
        QVERIFY(!QSettings().contains(QLatin1String(HardwareProfileChooser::kSettingsKey)));
    }

    void recipeComparisonShowsPredicted() {
        if (defaultCpuBackend() != CpuBackendKind::onednn)
            QSKIP("this build has no oneDNN: the comparison runs fp32 alone");
        BenchmarksPage page;
        tinyCruncher(page);
        QVERIFY(page.trainingPanel()->profileChooser()->chooseFile(m_good).isEmpty());
        QTest::mouseClick(button(page, QStringLiteral("Compare recipes")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 60000);
        // A line per recipe under the table: fp32 measured beside predicted; mixed-bf16, which the profile
        // did not measure, says why rather than guess.
        auto* lines = page.recipePanel()->findChild<QLabel*>(QStringLiteral("predictedSteps"));
        QVERIFY(lines);
        const QStringList shown = lines->text().split(QLatin1Char('\n'));
        QCOMPARE(shown.size(), 2);
        QVERIFY2(shown[0].startsWith(QStringLiteral("fp32 step: measured ")) &&
                     shown[0].contains(QStringLiteral(", predicted ")) && shown[0].contains(m_good),
                 qPrintable(shown[0]));
        QVERIFY2(shown[1].startsWith(QStringLiteral("mixed-bf16 step: measured ")) &&
                     shown[1].contains(QStringLiteral("not predicted: ")) &&
                     shown[1].contains(QStringLiteral("has no bf16 GEMM rate")),
                 qPrintable(shown[1]));
    }

private:
    static void tinyCruncher(BenchmarksPage& page) {
        auto spin = [&page](const char* name) {
            return page.findChild<QSpinBox*>(QString::fromLatin1(name));
        };
        spin("dim")->setValue(16);
        spin("layers")->setValue(2);
        spin("batch")->setValue(8);
        spin("steps")->setValue(3);
    }
    static void train(BenchmarksPage& page) {
        QTest::mouseClick(button(page, QStringLiteral("Train")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 30000);
    }

    QTemporaryDir m_dir;
    QString m_good, m_foreign, m_damaged;
};

QTEST_MAIN(TestTrainingPrediction)
#include "tst_training_prediction.moc"

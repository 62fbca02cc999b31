// SPDX-License-Identifier: GPL-3.0-or-later
// The training recipes' numerics on the CPU: every CPU trainer this build has (Eigen, oneDNN), in every
// recipe it runs (fp32, mixed-bf16), against the plain reference of tests/support/cruncher_reference.h on
// the same data and initial weights: five steps' losses within the recipe's tolerance. The reference in
// the recipe's own storage types is the tight check; mixed-bf16 against the fp32 reference shows what the
// 16-bit GEMMs cost (and that the loss still falls).
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/training_recipes.h"
#include "tests/support/cruncher_configs.h"
#include "tests/support/cruncher_reference.h"

#include <QtTest>

#include <cmath>
#include <memory>
#include <stdexcept>

using namespace napkin;
using napkin::testing::CruncherReference;
using napkin::testing::StoredAs;

Q_DECLARE_METATYPE(napkin::OptimizerKind)

class TestCruncherRecipes : public QObject {
    Q_OBJECT
private slots:
    void recipeNames_data();
    void recipeNames();
    void recipeLists_data();
    void recipeLists();
    void referenceStoresLikeTheFormats_data();
    void referenceStoresLikeTheFormats();
    void lossesMatchTheReference_data();
    void lossesMatchTheReference();
};

namespace {

std::unique_ptr<CruncherTrainer> cpuTrainer(const QByteArray& backendName, const CruncherConfig& c,
                                            QString* whyNot) {
    for (const BackendEntry& entry : listCpuBackends()) {
        if (entry.name != backendName.toStdString())
            continue;
        if (!entry.available) {
            *whyNot = QString::fromStdString(entry.name + " is not in this build");
            return nullptr;
        }
        BackendOptions options;
        options.cpuThreads = 1;
        options.cpuMeasurePeak = false;
        options.cpuBackend = cpuBackendKindFromName(entry.name);
        std::unique_ptr<BenchmarkBackend> backend = makeBackend("cpu", options);
        if (std::string why = backend->unsupportedRecipeReason(c); !why.empty()) {
            *whyNot = QString::fromStdString(why);
            return nullptr;
        }
        return backend->makeCruncherTrainer(c);
    }
    *whyNot = "no CPU backend named " + QString(backendName);
    return nullptr;
}

} // namespace

void TestCruncherRecipes::recipeNames_data() {
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<int>("precision"); // PrecisionRecipe
    QTest::addColumn<bool>("tf32");
    QTest::addColumn<QByteArray>("peakDtype"); // the promise MFU divides by (DeviceInfo's dtype names)
    QTest::newRow("fp32") << QByteArray("fp32") << int(PrecisionRecipe::fp32) << false << QByteArray("fp32");
    // TF32: fp32 storage, the tensor-core peak (H100 SXM: 494.7 against fp32's 67 TFLOPS).
    QTest::newRow("tf32") << QByteArray("tf32") << int(PrecisionRecipe::fp32) << true << QByteArray("tf32");
    QTest::newRow("mixed-bf16") << QByteArray("mixed-bf16") << int(PrecisionRecipe::mixedBf16) << false
                                << QByteArray("bf16");
    QTest::newRow("mixed-fp16") << QByteArray("mixed-fp16") << int(PrecisionRecipe::mixedFp16) << false
                                << QByteArray("fp16");
}

void TestCruncherRecipes::recipeNames() {
    QFETCH(QByteArray, name);
    QFETCH(int, precision);
    QFETCH(bool, tf32);
    QFETCH(QByteArray, peakDtype);
    CruncherConfig c;
    c.tf32Matmuls = !tf32; // set from the name, whatever it was
    QVERIFY(setTrainingRecipe(c, name.toStdString()));
    QCOMPARE(int(c.precision), precision);
    QCOMPARE(c.tf32Matmuls, tf32);
    QCOMPARE(QByteArray::fromStdString(trainingRecipeName(c)), name);
    QCOMPARE(QByteArray::fromStdString(trainingComputeDtype(c)), peakDtype);
    const CruncherConfig before = c;
    QVERIFY(!setTrainingRecipe(c, "fp64"));
    QCOMPARE(int(c.precision), int(before.precision)); // an unknown name changes nothing
    QCOMPARE(c.tf32Matmuls, before.tf32Matmuls);
}

void TestCruncherRecipes::recipeLists_data() {
    QTest::addColumn<QString>("list");
    QTest::addColumn<QStringList>("names"); // empty: refused
    QTest::addColumn<QString>("why");
    QTest::newRow("one") << "fp32" << QStringList{"fp32"} << "";
    QTest::newRow("all four, in order") << "mixed-fp16,fp32,tf32,mixed-bf16"
                                        << QStringList{"mixed-fp16", "fp32", "tf32", "mixed-bf16"} << "";
    QTest::newRow("twice") << "fp32,tf32,fp32" << QStringList{} << "'fp32' is named twice";
    QTest::newRow("empty item") << "fp32,,tf32" << QStringList{} << "has an empty item";
    QTest::newRow("trailing comma") << "fp32," << QStringList{} << "has an empty item";
    QTest::newRow("unknown") << "fp32,fp64" << QStringList{} << "unknown 'fp64'";
}

void TestCruncherRecipes::recipeLists() {
    QFETCH(QString, list);
    QFETCH(QStringList, names);
    QFETCH(QString, why);
    try {
        QStringList got;
        for (const std::string& n : trainingRecipesFromList(list.toStdString()))
            got << QString::fromStdString(n);
        QVERIFY2(why.isEmpty(), "accepted");
        QCOMPARE(got, names);
    } catch (const std::invalid_argument& e) {
        QVERIFY2(!why.isEmpty() && QString(e.what()).contains(why), e.what());
        QVERIFY(QString(e.what()).startsWith("--precision"));
    }
}

void TestCruncherRecipes::referenceStoresLikeTheFormats_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("format"); // StoredAs
    QTest::addColumn<double>("stored");
    // bf16 keeps 8 significant bits: 1 + 2^-8 is a tie between 1 and 1 + 2^-7, to even (1).
    QTest::newRow("bf16 tie to even") << 1.00390625 << int(StoredAs::bf16) << 1.0;
    QTest::newRow("bf16 above the tie") << 1.0078125 << int(StoredAs::bf16) << 1.0078125;
    // fp16 keeps 11: 1 + 2^-11 ties to 1; 2049 ties to 2048 (even); 65504 is the largest finite.
    QTest::newRow("fp16 tie to even") << 1.00048828125 << int(StoredAs::fp16) << 1.0;
    QTest::newRow("fp16 2049") << 2049.0 << int(StoredAs::fp16) << 2048.0;
    QTest::newRow("fp16 max") << 65504.0 << int(StoredAs::fp16) << 65504.0;
    QTest::newRow("fp16 overflow") << 65520.0 << int(StoredAs::fp16) << double(INFINITY);
    // The lecture: fp16(1e-8) underflows to 0 (smallest subnormal 2^-24 ≈ 5.96e-8); bf16(1e-8) does not.
    QTest::newRow("fp16(1e-8) = 0") << 1e-8 << int(StoredAs::fp16) << 0.0;
    QTest::newRow("bf16(1e-8) = 1.0012e-8") << 1e-8 << int(StoredAs::bf16) << 1.0011717677116394e-08;
}

void TestCruncherRecipes::referenceStoresLikeTheFormats() {
    QFETCH(double, value);
    QFETCH(int, format);
    QFETCH(double, stored);
    const double got = napkin::testing::storedValue(value, static_cast<StoredAs>(format));
    QVERIFY2(got == stored || std::fabs(got - stored) <= 1e-14 * std::fabs(stored),
             qPrintable(QString::number(got, 'g', 17)));
}

void TestCruncherRecipes::lossesMatchTheReference_data() {
    QTest::addColumn<QByteArray>("backend");
    QTest::addColumn<QByteArray>("recipe");
    QTest::addColumn<OptimizerKind>("optimizer");
    QTest::addColumn<int>("referenceStorage"); // StoredAs
    QTest::addColumn<double>("tolerance");     // on |loss − reference| / max(1, reference)
    // fp32: the same products, summed in float by the trainer and in double by the reference, each stored
    // as float: five steps agree to about a float ulp of the loss (seen: 1.1e-7 at most).
    // mixed-bf16 against its own reference: the same roundings at the same places; oneDNN's fp32 sums round
    // to the same bf16 values as the reference's double sums here (seen: equal), and a sum landing on a
    // bf16 tie could move one element by 2^-8, far below 1e-6 of the loss at this size.
    // mixed-bf16 against fp32: bf16's unit roundoff 2^-9 on every stored tensor, compounded over the GEMMs
    // of five steps (seen: 2.9e-3).
    for (OptimizerKind k : {OptimizerKind::sgd, OptimizerKind::adam}) {
        const QByteArray opt(optimizerName(k).data());
        for (const QByteArray& backend : {QByteArray("eigen"), QByteArray("onednn")}) {
            QTest::newRow(backend + " fp32 " + opt) << backend << QByteArray("fp32") << k << int(StoredAs::fp32)
                                                    << 1e-6;
        }
        QTest::newRow("onednn mixed-bf16 " + opt) << QByteArray("onednn") << QByteArray("mixed-bf16") << k
                                                  << int(StoredAs::bf16) << 1e-6;
        QTest::newRow("onednn mixed-bf16 vs fp32 " + opt)
            << QByteArray("onednn") << QByteArray("mixed-bf16") << k << int(StoredAs::fp32) << 1e-2;
    }
}

void TestCruncherRecipes::lossesMatchTheReference() {
    QFETCH(QByteArray, backend);
    QFETCH(QByteArray, recipe);
    QFETCH(OptimizerKind, optimizer);
    QFETCH(int, referenceStorage);
    QFETCH(double, tolerance);
    CruncherConfig config = cruncherConfig(24, 3, 16, optimizer);
    QVERIFY(setTrainingRecipe(config, recipe.toStdString()));
    QString whyNot;
    std::unique_ptr<CruncherTrainer> trainer = cpuTrainer(backend, config, &whyNot);
    if (!trainer)
        QSKIP(qPrintable(whyNot));
    CruncherReference reference(config, static_cast<StoredAs>(referenceStorage));
    double first = 0, last = 0;
    for (int s = 1; s <= 5; ++s) {
        const double got = trainer->step(), expected = reference.step();
        QVERIFY2(std::fabs(got - expected) <= tolerance * std::max(1.0, std::fabs(expected)),
                 qPrintable(QString("step %1: %2 vs reference %3").arg(s).arg(got, 0, 'g', 12).arg(expected, 0, 'g', 12)));
        (s == 1 ? first : last) = got;
    }
    QVERIFY2(last < first, qPrintable(QString("the loss did not fall: %1 -> %2").arg(first).arg(last)));
}

QTEST_APPLESS_MAIN(TestCruncherRecipes)
#include "tst_cruncher_recipes.moc"

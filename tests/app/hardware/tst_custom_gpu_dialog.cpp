// SPDX-License-Identifier: GPL-3.0-or-later
// A GPU of the user's own: the dialog checks each field as it is typed (its message under it), saves a
// catalog file the CLI reads, and the part it makes is chosen on the Accounting page and known on the
// Inference page; "This machine's GPU" says why when there is no device.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/hardware/custom_gpu_dialog.h"
#include "app/hardware/gpu_chooser_box.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/inference/inference_controls.h"
#include "app/inference/inference_page.h"

#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace napkin;

class TestCustomGpuDialog : public QObject {
    Q_OBJECT
private slots:
    void fieldsAreCheckedAsTyped();
    void savedFileIsACatalog();
    void customGpuIsChosenOnEveryPage();
    void thisMachineSaysWhyWithoutADevice();
    void arrowKeysPassOverTheSpecialItems();
};

namespace {
// An A100 SXM 80GB from its datasheet: 80 GB, 2,039 GB/s, FP32 19.5, TF32 156, BF16/FP16 312 dense, no
// fp8, 400 W.
void typeA100(CustomGpuDialog& dialog, const QString& name, const QString& memoryGb = QStringLiteral("80")) {
    QTest::keyClicks(dialog.field("name"), name);
    QTest::keyClicks(dialog.field("memory"), memoryGb);
    QTest::keyClicks(dialog.field("bandwidth"), QStringLiteral("2039"));
    QTest::keyClicks(dialog.field("fp32"), QStringLiteral("19.5"));
    QTest::keyClicks(dialog.field("tf32"), QStringLiteral("156"));
    QTest::keyClicks(dialog.field("fp16"), QStringLiteral("312"));
    QTest::keyClicks(dialog.field("bf16"), QStringLiteral("312"));
    QTest::keyClicks(dialog.field("fp8"), QStringLiteral("none"));
    QTest::keyClicks(dialog.field("tdp"), QStringLiteral("400"));
}
} // namespace

void TestCustomGpuDialog::fieldsAreCheckedAsTyped() {
    CustomGpuDialog dialog;
    QVERIFY(!dialog.addButton()->isEnabled()); // nothing typed: nothing to add, and nothing scolded yet
    QVERIFY(dialog.errorText("memory").isEmpty());
    typeA100(dialog, QStringLiteral("Lab A100"));
    QVERIFY(dialog.addButton()->isEnabled());
    QVERIFY(dialog.gpu());
    QCOMPARE(dialog.gpu()->densePeakBf16, 312e12);
    // A bad field says why, under itself, and the part cannot be added until it is fixed.
    dialog.field("memory")->setText(QStringLiteral("eighty"));
    QVERIFY(dialog.errorText("memory").contains(QStringLiteral("not a number")));
    QVERIFY(dialog.errorText("bandwidth").isEmpty());
    QVERIFY(!dialog.addButton()->isEnabled());
    QVERIFY(!dialog.saveButton()->isEnabled());
    dialog.field("memory")->setText(QStringLiteral("80"));
    dialog.field("bf16")->setText(QStringLiteral("-1"));
    QVERIFY(dialog.errorText("bf16").contains(QStringLiteral("positive")));
    dialog.field("bf16")->setText(QStringLiteral("312"));
    dialog.field("name")->setText(QStringLiteral("H100-SXM"));
    QVERIFY(dialog.errorText("name").contains(QStringLiteral("built-in")));
    dialog.field("name")->setText(QStringLiteral("Lab A100"));
    QVERIFY(dialog.addButton()->isEnabled());
}

void TestCustomGpuDialog::savedFileIsACatalog() {
    CustomGpuDialog dialog;
    typeA100(dialog, QStringLiteral("Saved A100"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("saved.json"));
    QCOMPARE(dialog.saveTo(path), QString());
    GpuCatalog catalog;
    QCOMPARE(QString::fromStdString(catalog.addFromFile(path.toStdString())), QString());
    const GpuSpec* gpu = catalog.find("Saved-A100");
    QVERIFY(gpu);
    QCOMPARE(gpu->memoryBandwidthBytesPerSecond, 2.039e12);
    QCOMPARE(*gpu->tdpWatts, 400.0);
    QVERIFY(densePeakGiven(*gpu, ComputeType::fp8));
    QCOMPARE(gpu->densePeakFp8, 0.0); // "none" stays "none"
}

void TestCustomGpuDialog::customGpuIsChosenOnEveryPage() {
    AccountingPage accounting;
    InferencePage inference;
    auto* box = static_cast<GpuChooserBox*>(accounting.controls()->gpuBox());
    const QString before = box->currentId();
    box->setCustomGpuAsker([](QWidget*) {
        CustomGpuDialog dialog;
        typeA100(dialog, QStringLiteral("Page A100"), QStringLiteral("96")); // unlike any H100
        return dialog.gpu();
    });
    box->setCurrentIndex(box->findData(QString::fromLatin1(GpuChooserBox::kCustom)));
    QCOMPARE(box->currentId(), before); // the page never sees "Custom GPU…" as a GPU
    QVERIFY(accounting.lastError().isEmpty());
    QTRY_COMPARE(box->currentId(), QStringLiteral("Page-A100"));
    QVERIFY2(accounting.lastError().isEmpty(), qPrintable(accounting.lastError()));
    const double peak = accounting.lastResult()->densePeakFlopsPerSecond.value; // the recipe's, typed above
    QVERIFY(peak == 19.5e12 || peak == 156e12 || peak == 312e12);
    QCOMPARE(accounting.lastResult()->capacityBytes.value, 96e9);
    // The Inference page's box has it too, and its answers use it.
    QComboBox* inferenceGpu = inference.findChild<GpuChooserBox*>();
    QVERIFY(inferenceGpu);
    const int index = inferenceGpu->findData(QStringLiteral("Page-A100"));
    QVERIFY(index >= 0);
    inferenceGpu->setCurrentIndex(index);
    QVERIFY2(inference.lastError().isEmpty(), qPrintable(inference.lastError()));
    QVERIFY(SessionGpuCatalog::instance().catalog().find("Page-A100"));
}

void TestCustomGpuDialog::thisMachineSaysWhyWithoutADevice() {
    GpuChooserBox box;
    const QString before = box.currentId();
    QString said;
    box.setMessageShower([&](QWidget*, const QString& message) { said = message; });
    box.setCurrentIndex(box.findData(QString::fromLatin1(GpuChooserBox::kThisMachine)));
    QCOMPARE(box.currentId(), before);
    // Without a device (this build machine, CI) it says why; with one it chooses the part or says why not.
    QTRY_VERIFY(!said.isEmpty() || box.currentId() != before);
    if (!said.isEmpty() && said.startsWith(QStringLiteral("no CUDA device found")))
        QCOMPARE(box.currentId(), before);
}

// The arrow keys on the closed box step through the parts; they once landed on "This machine's GPU" and
// "Custom GPU…" after the last part and opened their dialogs, though the user only moved the selection.
// Those two act on an explicit choice (a click, or Enter in the list), not on the way past.
void TestCustomGpuDialog::arrowKeysPassOverTheSpecialItems() {
    GpuChooserBox box;
    int asked = 0, told = 0;
    box.setCustomGpuAsker([&](QWidget*) {
        ++asked;
        return std::optional<GpuSpec>();
    });
    box.setMessageShower([&](QWidget*, const QString&) { ++told; });
    const QString lastPart = QString::fromStdString(sessionGpuCatalog().gpus().back().id);
    QVERIFY(box.selectId(lastPart));
    box.setFocus();
    for (int i = 0; i < 3; ++i) // past both special items, had the box stopped on neither
        QTest::keyClick(&box, Qt::Key_Down);
    QTest::keyClick(&box, Qt::Key_End);
    QTest::keyClick(&box, Qt::Key_PageDown);
    QTest::qWait(50); // a special item's action runs from the event loop
    QCOMPARE(asked, 0);
    QCOMPARE(told, 0);
    QCOMPARE(box.currentId(), lastPart);
    // Up still steps through the parts.
    QTest::keyClick(&box, Qt::Key_Up);
    QCOMPARE(box.currentId(), QString::fromStdString(sessionGpuCatalog().gpus().rbegin()[1].id));
    // An explicit choice still asks.
    box.setCurrentIndex(box.findData(QString::fromLatin1(GpuChooserBox::kCustom)));
    QTRY_COMPARE(asked, 1);
}

QTEST_MAIN(TestCustomGpuDialog)
#include "tst_custom_gpu_dialog.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// "How is this computed?": the explanation functions show the lecture's numbers, derived from the
// engine's results for known inputs, and each page's pane follows its inputs.
#include "app/accounting/accounting_page.h"
#include "app/accounting/explain_accounting.h"
#include "app/accounting/presets.h"
#include "app/benchmarks/explain_benchmark.h"
#include "app/formats/explain_number_format.h"
#include "app/formats/number_formats_page.h"
#include "app/tensor/explain_tensor.h"
#include "app/tensor/tensor_page.h"
#include "widgets/controls/explain_pane.h"

#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QtTest>

using namespace napkin;

namespace {

// What a reader sees: the HTML rendered to plain text (entities and tags gone).
QString plain(const QString& html) {
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}

QString explainPreset(const QString& id) {
    const Preset* preset = findPreset(id);
    if (!preset)
        return {};
    const AccountingResult r = account(preset->input, *GpuCatalog::builtIn().find(preset->input.gpu));
    return plain(explainAccounting(preset->input, r, ByteUnits::decimal));
}

} // namespace

class TestExplain : public QObject {
    Q_OBJECT
private slots:
    void accountingLectureNumbers_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("expected");
        // 6·70e9·15e12 = 6.3e24 FLOPs, ≈144 days on 1024 H100 at MFU 0.5.
        QTest::newRow("70B training FLOPs") << "70b-15t-1024-h100"
                                            << "6.30e24 FLOPs";
        QTest::newRow("70B 6N per token") << "70b-15t-1024-h100"
                                          << "= 6N → 4.20e11 FLOPs per token";
        QTest::newRow("70B days") << "70b-15t-1024-h100"
                                  << "143.9 days";
        QTest::newRow("H100 peak at MFU 0.5") << "70b-15t-1024-h100"
                                              << "each GPU delivers 0.5 × 9.89e14";
        QTest::newRow("AdamW fp32 16 B/param") << "largest-8-h100"
                                               << "= 16 B/param";
        QTest::newRow("largest model 40e9") << "largest-8-h100"
                                            << "4.00e10 parameters";
        QTest::newRow("Cruncher params") << "cruncher"
                                         << "N = L·D² + D = 2 × 4² + 4 = 36";
        QTest::newRow("Cruncher 496 bytes") << "cruncher"
                                            << "= 496 B";
        QTest::newRow("Cruncher 432 FLOPs") << "cruncher"
                                            << "= 432";
        // Memory over one step (tests/engine/accounting/tst_memory_timeline.cpp by hand): at the backward
        // of layer 2, h1 and the two dL/dh temporaries are held and dW1 does not exist yet.
        QTest::newRow("Cruncher peak 464 B") << "cruncher"
                                             << "at backward layer 2: 144 + 80 + 0 + 144 + 32 + 64 = 464 B";
        QTest::newRow("Cruncher peak below the sum") << "cruncher"
                                                     << "464 B, below the sum 496 B";
        QTest::newRow("Cruncher at the peak") << "cruncher"
                                              << "32 B of the 64 B of activations are held, 80 B of the "
                                                 "144 B of gradients exist, and 64 B of temporaries";
        // The lecture's AdaGrad line holds lr·grad, g2 + 1e-5 and its sqrt at once (torch 1.13 profiler).
        QTest::newRow("Cruncher unfused AdaGrad above the sum")
            << "cruncher"
            << "432 B + 3 × 64 B = 624 B, above the sum 496 B";
        QTest::newRow("70B: the peak is the sum") << "70b-15t-1024-h100"
                                                  << "equal to the sum";
    }
    void accountingLectureNumbers() {
        QFETCH(QString, preset);
        QFETCH(QString, expected);
        const QString text = explainPreset(preset);
        QVERIFY2(text.contains(expected),
                 qPrintable(QStringLiteral("missing “%1” in:\n%2").arg(expected, text)));
    }

    // The pane and the timeline give one answer about the optimizer step: under pytorch-eager the event
    // holds torch.optim's single-tensor temporaries, so the pane must not call the update fused.
    void optimizerStepFollowsTheProfile() {
        AccountingInput in;
        in.model.kind = ModelKind::transformer;
        in.model.dModel = 40;
        in.model.heads = 5;
        in.model.layers = 2;
        in.model.vocab = 53;
        in.model.seq = 11;
        in.model.ffnDim = 160;
        in.model.bias = false;
        in.model.dropout = false;
        in.model.embeddings = EmbeddingTying::untied;
        in.model.activationsOf = ActivationProfile::pytorchEager;
        in.batch = 3;
        in.precision = PrecisionRecipe::fp32;
        in.optimizer = OptimizerKind::adamw;
        in.optimizerImplementation = OptimizerImplementation::singleTensor;
        QVERIFY(validate(in).ok());
        const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
        const QString eager = plain(explainAccounting(in, account(in, gpu), ByteUnits::decimal));
        QVERIFY2(eager.contains(QStringLiteral("one parameter at a time")), qPrintable(eager));
        QVERIFY2(eager.contains(QStringLiteral("= 76812 B")), qPrintable(eager)); // torch's profiler
        QVERIFY2(!eager.contains(QStringLiteral("adds no temporaries")), qPrintable(eager));
        in.model.activationsOf = ActivationProfile::megatron;
        const QString megatron = plain(explainAccounting(in, account(in, gpu), ByteUnits::decimal));
        QVERIFY2(megatron.contains(QStringLiteral("adds no temporaries")), qPrintable(megatron));
    }

    // Two-layer linear model, B=16384, D=32768, K=8192: forward 2·B·(D·D + D·K) = 4.398e13, backward twice.
    void linearModelMatmulFlops() {
        AccountingInput in;
        in.model.kind = ModelKind::linear2;
        in.model.dim = 32768;
        in.model.out = 8192;
        in.batch = 16384;
        QVERIFY(validate(in).ok());
        const AccountingResult r = account(in, *GpuCatalog::builtIn().find(in.gpu));
        const QString text = plain(explainAccounting(in, r, ByteUnits::decimal));
        QVERIFY2(text.contains(QStringLiteral("2·m·n·k")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("4.40e13")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("8.80e13")), qPrintable(text));
    }

    void floatDecoding_data() {
        QTest::addColumn<int>("format");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("fp32 1") << int(FloatFormat::fp32) << 1.0
                                << "(−1)^0 · 2^(127 − 127) · (1 + 0/2^23) = 1";
        QTest::newRow("fp16 max") << int(FloatFormat::fp16) << 65504.0
                                  << "(−1)^0 · 2^(30 − 15) · (1 + 1023/1024) = 65504";
        QTest::newRow("e4m3 max") << int(FloatFormat::fp8_e4m3) << 448.0 << "2^(15 − 7) · (1 + 6/8) = 448";
        QTest::newRow("e5m2 max") << int(FloatFormat::fp8_e5m2) << 57344.0
                                  << "2^(30 − 15) · (1 + 3/4) = 57344";
        QTest::newRow("fp16 1e-8 underflows") << int(FloatFormat::fp16) << 1e-8 << "→ 0. Underflow";
        QTest::newRow("bf16 1e-8 survives") << int(FloatFormat::bf16) << 1e-8 << "(−1)^0 · 2^(100 − 127)";
        QTest::newRow("fp16 subnormal")
            << int(FloatFormat::fp16) << 0x1p-24 << "2^(1 − 15) · (1/1024) = 5.960464477539063e-08";
        QTest::newRow("fp16 overflow")
            << int(FloatFormat::fp16) << 1e5 << "+inf. Overflow: the largest finite value is 65504";
        QTest::newRow("e4m3 overflow is NaN")
            << int(FloatFormat::fp8_e4m3) << 1e5 << "NaN. This format has no infinity";
    }
    void floatDecoding() {
        QFETCH(int, format);
        QFETCH(double, value);
        QFETCH(QString, expected);
        const QString text = explainFloat(roundToFormat(static_cast<FloatFormat>(format), value));
        QVERIFY2(text.contains(expected), qPrintable(text));
    }

    void tensorOffsets_data() {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("expected");
        // Element (1,2) of a contiguous 4×4 tensor: 1·4 + 2·1 = 6.
        QTest::newRow("4x4 element (1,2)") << "4,4"
                                           << "x"
                                           << "Element (1, 2) is at storage offset 1·4 + 2·1 = 6";
        QTest::newRow("transpose not contiguous") << "2,3"
                                                  << "x.transpose(1, 0)"
                                                  << "differ from the row-major (2, 1)";
        QTest::newRow("view after transpose fails") << "2,3"
                                                    << "x.transpose(1, 0).view(2, 3)"
                                                    << "Step 2 fails";
        QTest::newRow("offset of a slice") << "4,4"
                                           << "x[1:, 2:]"
                                           << "offset 6";
        // clone() of an expanded, transposed tensor: the input's stride order, torch 1.13's (48, 12, 1, 4).
        QTest::newRow("clone keeps the stride order")
            << "4,3,4"
            << "x.expand(2,4,-1,4).transpose(3,-2).clone()"
            << "Hence (48, 12, 1, 4), not the row-major (48, 12, 3, 1)";
        QTest::newRow("clone keeps dense strides") << "2,3"
                                                   << "x.t().clone()"
                                                   << "keeps the strides (1, 3) of its input";
        QTest::newRow("4x8 fp32 is 128 B") << "4,8"
                                           << "x"
                                           << "32 elements × 4 B = 128 B";
    }
    void tensorOffsets() {
        QFETCH(QString, shape);
        QFETCH(QString, expression);
        QFETCH(QString, expected);
        std::string error;
        const auto sizes = parseShapeText(shape.toStdString(), &error);
        QVERIFY(sizes);
        const TensorEvaluation e = evaluateTensorExpression(expression.toStdString(), *sizes, 4);
        const QString text = plain(explainTensorStep(e, static_cast<int>(e.steps.size()) - 1));
        QVERIFY2(text.contains(expected), qPrintable(text));
    }

    void benchmarkMfu() {
        MatmulSweep sweep;
        MatmulResult small;
        small.ok = true;
        small.shape = {128, 128, 128, BenchDtype::fp32};
        small.flops = 2.0 * 128 * 128 * 128;
        small.timing.medianSeconds = 1e-4;
        small.flopsPerSecond = small.flops / 1e-4;
        small.promisedFlopsPerSecond = 1e11;
        small.mfu = small.flopsPerSecond / 1e11;
        MatmulResult big = small;
        big.shape = {1024, 1024, 1024, BenchDtype::fp32};
        big.flops = 2.0 * 1024 * 1024 * 1024; // 2.147e9
        big.timing.medianSeconds = 0.05;
        big.flopsPerSecond = big.flops / 0.05; // 4.295e10
        big.mfu = big.flopsPerSecond / 1e11;   // 0.4295
        sweep.results = {small, big};
        QCOMPARE(exampleMatmulResult(sweep), &sweep.results[1]);
        const QString text = plain(explainBenchmarks(sweep));
        QVERIFY2(text.contains(QStringLiteral("FLOPs = 2 × 1024 × 1024 × 1024 = 2147483648")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("MFU = achieved FLOP/s ÷ promised peak")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("= 0.4295")), qPrintable(text));
        QVERIFY(plain(explainBenchmarks(std::nullopt)).contains(QStringLiteral("Run a sweep")));
    }

    // The panes on the pages follow the inputs: change an input, the numbers in the pane change.
    void accountingPaneFollowsInputs() {
        AccountingPage page;
        page.applyPreset(*findPreset(QStringLiteral("cruncher")));
        QVERIFY(page.explainPane()->plainText().contains(QStringLiteral("= 496 B")));
        QVERIFY(!page.explainPane()->isExpanded());
        // Collapsed, the text waits (a slider drag does not lay out a hidden document); opening shows it.
        QVERIFY(page.explainPane()->browser()->toPlainText().isEmpty());
        page.explainPane()->toggleButton()->click();
        QVERIFY(page.explainPane()->isExpanded());
        QVERIFY(page.explainPane()->browser()->isVisibleTo(&page));
        QVERIFY(page.explainPane()->browser()->toPlainText().contains(QStringLiteral("= 496 B")));
        page.applyPreset(*findPreset(QStringLiteral("70b-15t-1024-h100")));
        QVERIFY(page.explainPane()->plainText().contains(QStringLiteral("6.30e24")));
        // Open, the browser catches up once the changes pause.
        QTRY_VERIFY(page.explainPane()->browser()->toPlainText().contains(QStringLiteral("6.30e24")));
        QVERIFY(!page.explainPane()->plainText().contains(QStringLiteral("= 496 B")));
    }

    void formatsAndTensorPanesFollowInputs() {
        NumberFormatsPage formats;
        formats.setValue(65504);
        QVERIFY(formats.explainPane()->plainText().contains(QStringLiteral("(1 + 1023/1024) = 65504")));
        formats.setValue(1e-8);
        QVERIFY(formats.explainPane()->plainText().contains(QStringLiteral("Underflow")));
        TensorPage tensor;
        tensor.setExample(QStringLiteral("4,4"), QStringLiteral("x"));
        QVERIFY(tensor.explainPane()->plainText().contains(QStringLiteral("1·4 + 2·1 = 6")));
        tensor.setExample(QStringLiteral("2,3"), QStringLiteral("x.transpose(1, 0).view(2, 3)"));
        QVERIFY(tensor.explainPane()->plainText().contains(QStringLiteral("fails")));
    }

    // "Compared with other calculators" (engine/peers): the GPT-3 preset is ZeRO-3 on 1024 GPUs, so
    // DeepSpeed's ZeRO-3 estimator adds 4 B × the 50257 × 12288 token embedding, its largest module
    // (4 × 617,558,016 = 2.47 GB), and Megatron's activations ignore the preset's full recompute.
    void comparedWithOtherCalculators() {
        const QString text = explainPreset("gpt3-175b");
        QVERIFY(text.contains("Compared with other calculators"));
        QVERIFY(text.contains("DeepSpeed ZeRO-3 estimator"));
        QVERIFY2(text.contains("gathered largest layer +2.47 GB"), qPrintable(text.right(3000)));
        QVERIFY(text.contains("ignores full recompute"));
        // A peer without an answer says why: the lecture's dense 1e9 has no largest layer for ZeRO-3.
        QVERIFY(explainPreset("largest-8-h100").contains("No answer for this setup"));
    }
};

QTEST_MAIN(TestExplain)
#include "tst_explain.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Frozen layers (engine/accounting/frozen_layers.h): the list napkin-cli's --freeze takes, the rule of
// what trains, what backward passes and what is kept, and the accounting's Cruncher with some layers
// frozen (trainable count, states, activations) with its validation.
#include "engine/accounting/accounting.h"
#include "engine/accounting/frozen_layers.h"

#include <QtTest>

#include <algorithm>

using namespace napkin;

Q_DECLARE_METATYPE(std::optional<std::vector<long>>)

class TestFrozenLayers : public QObject {
    Q_OBJECT
private slots:
    void fromText_data();
    void fromText();
    void textRoundTrips();
    void rule();
    void accountingOfAFrozenCruncher();
    void validation();
};

void TestFrozenLayers::fromText_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::optional<std::vector<long>>>("layers"); // of an L = 6 chain
    using V = std::vector<long>;
    QTest::newRow("one") << "2" << std::optional(V{2});
    QTest::newRow("range") << "1-3" << std::optional(V{1, 2, 3});
    QTest::newRow("list, sorted") << "5,1-2" << std::optional(V{1, 2, 5});
    QTest::newRow("every layer") << "1-6" << std::optional(V{1, 2, 3, 4, 5, 6});
    QTest::newRow("zero") << "0" << std::optional<V>();
    QTest::newRow("past L") << "7" << std::optional<V>();
    QTest::newRow("twice") << "1,1" << std::optional<V>();
    QTest::newRow("overlapping ranges") << "1-3,3-4" << std::optional<V>();
    QTest::newRow("backwards") << "3-1" << std::optional<V>();
    QTest::newRow("empty part") << "1,,2" << std::optional<V>();
    QTest::newRow("trailing comma") << "1," << std::optional<V>();
    QTest::newRow("empty") << "" << std::optional<V>();
    QTest::newRow("sign") << "+1" << std::optional<V>();
    QTest::newRow("negative") << "-1" << std::optional<V>();
    QTest::newRow("word") << "first" << std::optional<V>();
    QTest::newRow("space") << "1, 2" << std::optional<V>();
    QTest::newRow("fraction") << "1.5" << std::optional<V>();
}

void TestFrozenLayers::fromText() {
    QFETCH(QString, text);
    QFETCH(std::optional<std::vector<long>>, layers);
    QCOMPARE(frozenLayersFromText(text.toStdString(), 6), layers);
}

void TestFrozenLayers::textRoundTrips() {
    QCOMPARE(frozenLayersText(std::vector<long>{1, 2, 3, 5}), std::string("1-3,5"));
    QCOMPARE(frozenLayersText(std::vector<long>{2}), std::string("2"));
    QCOMPARE(frozenLayersText(std::vector<long>{}), std::string());
    for (const char* text : {"1-3,5", "2,4,6", "1-6", "3"})
        QCOMPARE(frozenLayersText(*frozenLayersFromText(text, 6)), std::string(text));
}

// L = 4 with layers 1 and 3 frozen: 2 and 4 train; backward stops at 2 (no dL/dh_1 there); h_1 (feeds 2)
// and h_3 (feeds 4) and h_4 (feeds the head) are kept, h_2 (feeds frozen 3) is not.
void TestFrozenLayers::rule() {
    const std::vector<long> f{1, 3};
    QVERIFY(!layerTrains(f, 1) && layerTrains(f, 2) && !layerTrains(f, 3) && layerTrains(f, 4));
    QCOMPARE(lowestTrainingLayer(f, 4), 2L);
    QCOMPARE(lowestTrainingLayer(std::vector<long>{1, 2, 3, 4}, 4), 5L); // the head alone
    QCOMPARE(lowestTrainingLayer(std::vector<long>{}, 4), 1L);
    QVERIFY(!computesInputGradient(f, 4, 2) && computesInputGradient(f, 4, 3) &&
            computesInputGradient(f, 4, 4));
    QVERIFY(outputKept(f, 4, 1) && !outputKept(f, 4, 2) && outputKept(f, 4, 3) && outputKept(f, 4, 4));
    QCOMPARE(keptOutputs(f, 4), 3L);
    QCOMPARE(keptOutputs(std::vector<long>{1, 2, 3, 4}, 4), 1L);
}

// D = 4, L = 3, B = 2, AdaGrad, fp32, layer 2 frozen: P = 52, trainable 52 − 16 = 36; parameters 52 × 4 =
// 208 B (frozen weights stay stored), gradients and state 36 × 4 = 144 B each; activations h_2, h_3
// (h_1 feeds the frozen layer) = 2 × B·D × 4 = 64 B.
void TestFrozenLayers::accountingOfAFrozenCruncher() {
    AccountingInput in;
    in.model.kind = ModelKind::cruncher;
    in.model.dim = 4;
    in.model.layers = 3;
    in.batch = 2;
    in.optimizer = OptimizerKind::adagrad;
    in.fineTuning.frozenLayers = {2};
    QVERIFY(validate(in).ok());
    const AccountingResult r = account(in, *GpuCatalog::builtIn().find(in.gpu));
    QCOMPARE(r.trainableParameters, 36.0);
    QVERIFY(r.fineTune);
    QCOMPARE(r.fineTune->frozenParameters.value, 16.0);
    QCOMPARE(r.memory.parameters.value, 208.0);
    QCOMPARE(r.memory.gradients.value, 144.0);
    QCOMPARE(r.memory.optimizerState.value, 144.0);
    QCOMPARE(r.memory.activations.value, 64.0);
    QCOMPARE(r.memory.total.value, 208.0 + 144 + 144 + 64);
    QVERIFY(std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& note) {
        return note.rfind("layers 2 frozen: 36 trainable of 52", 0) == 0;
    }));
}

void TestFrozenLayers::validation() {
    AccountingInput in;
    in.model.kind = ModelKind::cruncher;
    in.model.dim = 4;
    in.model.layers = 3;
    in.fineTuning.frozenLayers = {4};
    QCOMPARE(validate(in).field, std::string("freeze"));
    in.fineTuning.frozenLayers = {2, 1};
    QCOMPARE(validate(in).field, std::string("freeze"));
    in.fineTuning.frozenLayers = {1, 2, 3};
    QVERIFY(validate(in).ok());
    in.model.kind = ModelKind::linear2;
    in.model.out = 2;
    QCOMPARE(validate(in).field, std::string("freeze"));
}

QTEST_APPLESS_MAIN(TestFrozenLayers)
#include "tst_frozen_layers.moc"

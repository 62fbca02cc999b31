// SPDX-License-Identifier: GPL-3.0-or-later
// What a copy stores: the source's elements in row-major order, laid out in the copy's strides.
#include "engine/tensor/tensor_expression.h"
#include "engine/tensor/tensor_storage_values.h"

#include <QtTest>

using namespace napkin;

class TestTensorStorageValues : public QObject {
    Q_OBJECT
private slots:
    void copies_data();
    void copies();
    void xIsFilledWithItsIndices();
};

void TestTensorStorageValues::copies_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QList<int>>("shape");
    QTest::addColumn<QList<double>>("stored");
    QTest::newRow("x.T.contiguous() of 2×3 (lecture)")
        << "x.transpose(1,0).contiguous()" << QList<int>{2, 3} << QList<double>{0, 3, 1, 4, 2, 5};
    QTest::newRow("column x[:, 1] copied")
        << "x[:, 1].contiguous()" << QList<int>{2, 3} << QList<double>{1, 4};
    QTest::newRow("expand then contiguous repeats") << "x.expand(3,4).contiguous()" << QList<int>{3, 1}
                                                    << QList<double>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
    QTest::newRow("reshape of a transpose copies")
        << "x.t().reshape(6)" << QList<int>{2, 3} << QList<double>{0, 3, 1, 4, 2, 5};
}

void TestTensorStorageValues::copies() {
    QFETCH(QString, expr);
    QFETCH(QList<int>, shape);
    QFETCH(QList<double>, stored);
    const std::vector<int64_t> dims(shape.begin(), shape.end());
    const TensorEvaluation e = evaluateTensorExpression(expr.toStdString(), dims, 4);
    QVERIFY(e.steps.size() >= 2);
    const TensorStep& last = e.steps.back();
    QVERIFY(!last.isView);
    const TensorLayout& source = e.steps[e.steps.size() - 2].layout;
    std::vector<double> values = initialStorageValues(e.steps.front().layout);
    for (std::size_t i = 1; i + 1 < e.steps.size(); ++i)
        if (!e.steps[i].isView)
            values = copiedStorageValues(e.steps[i - 1].layout, values, e.steps[i].layout);
    const std::vector<double> result = copiedStorageValues(source, values, last.layout);
    QCOMPARE(QList<double>(result.begin(), result.end()), stored);
}

void TestTensorStorageValues::xIsFilledWithItsIndices() {
    TensorLayout x;
    x.shape = {2, 2};
    x.stride = {2, 1};
    x.storageElements = 4;
    QCOMPARE(initialStorageValues(x), (std::vector<double>{0, 1, 2, 3}));
    x.storageElements = kMaxTrackedStorageElements + 1;
    QVERIFY(initialStorageValues(x).empty());
}

QTEST_APPLESS_MAIN(TestTensorStorageValues)
#include "tst_tensor_storage_values.moc"

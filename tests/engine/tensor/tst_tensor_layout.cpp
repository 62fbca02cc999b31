// SPDX-License-Identifier: GPL-3.0-or-later
// Strided layout and PyTorch's view rules, checked against the strides and offsets PyTorch reports.
#include "engine/tensor/tensor_layout.h"
#include "engine/tensor/tensor_ops.h"
#include "tensor_test_support.h"

#include <QtTest>

using namespace napkin;

namespace {
TensorLayout strided(const QString& shape, const QString& stride, int64_t offset = 0) {
    TensorLayout t;
    t.shape = ints(shape);
    t.stride = ints(stride);
    t.offset = offset;
    t.storageElements = 64;
    return t;
}
} // namespace

class TestTensorLayout : public QObject {
    Q_OBJECT
private slots:
    void storageOffset_data();
    void storageOffset();
    void contiguity_data();
    void contiguity();
    void preserveFormat_data();
    void preserveFormat();
    void viewStrides_data();
    void viewStrides();
    void inferSizeErrors_data();
    void inferSizeErrors();
    void dimensionOutOfRange();
    void elementOffsetsRowMajor();
    void copiesAndViews();
    void dtypeSizes_data();
    void dtypeSizes();
    void shapeText_data();
    void shapeText();
};

void TestTensorLayout::storageOffset_data() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("index");
    QTest::addColumn<qlonglong>("expected");
    QTest::addColumn<QString>("formula");
    QTest::newRow("4x4 element (1,2)") << "4,4"
                                       << "1,2" << 6LL << "1·4 + 2·1 = 6";
    QTest::newRow("2x3 element (1,0)") << "2,3"
                                       << "1,0" << 3LL << "1·3 + 0·1 = 3";
    QTest::newRow("2x3x4 element (1,2,3)") << "2,3,4"
                                           << "1,2,3" << 23LL << "1·12 + 2·4 + 3·1 = 23";
}

void TestTensorLayout::storageOffset() {
    QFETCH(QString, shape);
    QFETCH(QString, index);
    QFETCH(qlonglong, expected);
    QFETCH(QString, formula);
    const TensorLayout t = freshTensor(ints(shape), 4, 0);
    QCOMPARE(storageOffsetOf(t, ints(index)), expected);
    QCOMPARE(QString::fromStdString(storageOffsetFormula(t, ints(index))), formula);
}

void TestTensorLayout::contiguity_data() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("stride");
    QTest::addColumn<bool>("contiguous");
    QTest::addColumn<bool>("dense");
    QTest::newRow("row-major 2x3") << "2,3"
                                   << "3,1" << true << true;
    QTest::newRow("transposed 3x2") << "3,2"
                                    << "1,3" << false << true;
    QTest::newRow("size-1 dim ignores its stride") << "1,3"
                                                   << "99,1" << true << true;
    QTest::newRow("no elements is contiguous") << "0,3"
                                               << "1,7" << true << true;
    QTest::newRow("expanded (3,4) stride (1,0)") << "3,4"
                                                 << "1,0" << false << false;
    QTest::newRow("column x[:,1] of 2x3") << "2"
                                          << "3" << false << false;
    QTest::newRow("every other column") << "2,3"
                                        << "6,2" << false << false;
    QTest::newRow("head split (2,2,4,3)") << "2,2,4,3"
                                          << "24,3,6,1" << false << true;
}

void TestTensorLayout::contiguity() {
    QFETCH(QString, shape);
    QFETCH(QString, stride);
    QFETCH(bool, contiguous);
    QFETCH(bool, dense);
    const TensorLayout t = strided(shape, stride);
    QCOMPARE(isContiguous(t), contiguous);
    QCOMPARE(isNonOverlappingAndDense(t), dense);
}

// clone()'s strides (preserve_format). Every row was read from PyTorch 1.13:
//   torch.empty_strided(shape, stride).clone().stride()
// `dense` is what denseStridesLike (ATen's infer_dense_strides) gives, whether or not clone uses it:
// a non-overlapping and dense input keeps its own strides instead.
void TestTensorLayout::preserveFormat_data() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("stride");
    QTest::addColumn<QString>("dense");
    QTest::addColumn<QString>("cloned");
    // Issue 20's rows: [4,3,4] x.expand(2,4,-1,4).transpose(3,-2), and [5,5,5] x.diagonal(-1,1,0).
    QTest::newRow("expand then transpose") << "2,4,4,3"
                                           << "0,12,1,4"
                                           << "48,12,1,4"
                                           << "48,12,1,4";
    QTest::newRow("diagonal(-1,1,0) of 5x5x5") << "5,4"
                                               << "1,30"
                                               << "1,5"
                                               << "1,5";
    // The example in ATen's own comment: stride-0 dimensions stay where they are, (4,3,0,1,2).
    QTest::newRow("ATen's comment example") << "6,5,4,3,2"
                                            << "6,0,120,0,1"
                                            << "6,36,180,2,1"
                                            << "6,36,180,2,1";
    QTest::newRow("expanded column is row-major") << "3,4"
                                                  << "1,0"
                                                  << "4,1"
                                                  << "4,1";
    QTest::newRow("all stride 0") << "4,3"
                                  << "0,0"
                                  << "3,1"
                                  << "3,1";
    QTest::newRow("stride 0 blocks the sort") << "2,3,4"
                                              << "1,0,0"
                                              << "12,4,1"
                                              << "12,4,1";
    QTest::newRow("equal strides: smaller size inner") << "2,3"
                                                       << "1,1"
                                                       << "1,2"
                                                       << "1,2";
    QTest::newRow("equal strides, larger first stays") << "3,2"
                                                       << "1,1"
                                                       << "2,1"
                                                       << "2,1";
    QTest::newRow("equal strides, equal sizes: a tie keeps row-major") << "3,3"
                                                                       << "1,1"
                                                                       << "3,1"
                                                                       << "3,1";
    QTest::newRow("three equal strides, tie broken by size") << "2,2,3"
                                                             << "1,1,1"
                                                             << "2,1,4"
                                                             << "2,1,4";
    QTest::newRow("three equal strides, sizes descending") << "3,2,2"
                                                           << "1,1,1"
                                                           << "4,2,1"
                                                           << "4,2,1";
    QTest::newRow("overlapping inner pair") << "2,2,2"
                                            << "4,1,1"
                                            << "4,2,1"
                                            << "4,2,1";
    QTest::newRow("every other column") << "2,3"
                                        << "6,2"
                                        << "3,1"
                                        << "3,1";
    QTest::newRow("strided slice, transposed") << "3,2"
                                               << "2,6"
                                               << "1,3"
                                               << "1,3";
    QTest::newRow("1-D strided") << "4"
                                 << "2"
                                 << "1"
                                 << "1";
    QTest::newRow("1-D expanded") << "4"
                                  << "0"
                                  << "1"
                                  << "1";
    QTest::newRow("0-d") << ""
                         << ""
                         << ""
                         << "";
    // Non-overlapping and dense: clone keeps the strides, even the odd stride of a size-1 dimension.
    QTest::newRow("transposed keeps its strides") << "3,2"
                                                  << "1,3"
                                                  << "1,3"
                                                  << "1,3";
    QTest::newRow("dense with a size-1 stride of 7") << "3,1,4"
                                                     << "1,7,3"
                                                     << "1,12,3"
                                                     << "1,7,3";
    QTest::newRow("size-1 dim with stride 0, contiguous") << "4,1,3"
                                                          << "3,0,1"
                                                          << "3,3,1"
                                                          << "3,0,1";
    QTest::newRow("no elements keeps any strides") << "2,0,3"
                                                   << "0,1,2"
                                                   << "3,1,1"
                                                   << "0,1,2";
    QTest::newRow("1-D size 1 keeps stride 5") << "1"
                                               << "5"
                                               << "1"
                                               << "5";
}

void TestTensorLayout::preserveFormat() {
    QFETCH(QString, shape);
    QFETCH(QString, stride);
    QFETCH(QString, dense);
    QFETCH(QString, cloned);
    QCOMPARE(text(denseStridesLike(ints(shape), ints(stride))), dense);
    const TensorLayout t = strided(shape, stride);
    QCOMPARE(text(preserveFormatStrides(t)), cloned);
    const TensorOpResult c = clone(t, 5);
    QVERIFY(c.copied);
    QCOMPARE(text(c.layout.stride), cloned);
    QCOMPARE(c.layout.offset, 0LL);
    QCOMPARE(c.layout.storageId, 5);
    QCOMPARE(c.layout.storageElements, t.numel());
}

void TestTensorLayout::viewStrides_data() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("stride");
    QTest::addColumn<QString>("newShape");
    QTest::addColumn<bool>("possible");
    QTest::addColumn<QString>("expected");
    QTest::newRow("contiguous 2x3 → 3x2") << "2,3"
                                          << "3,1"
                                          << "3,2" << true << "2,1";
    QTest::newRow("transposed → 2x3 fails") << "3,2"
                                            << "1,3"
                                            << "2,3" << false << "";
    QTest::newRow("transposed → 3,2,1 splits nothing") << "3,2"
                                                       << "1,3"
                                                       << "3,2,1" << true << "1,3,3";
    QTest::newRow("expanded → 12 fails") << "3,4"
                                         << "1,0"
                                         << "12" << false << "";
    QTest::newRow("expanded → 3,2,2") << "3,4"
                                      << "1,0"
                                      << "3,2,2" << true << "1,0,0";
    QTest::newRow("head split of (2,4,6)") << "2,4,6"
                                           << "24,6,1"
                                           << "2,4,2,3" << true << "24,6,3,1";
    QTest::newRow("sliced x[:, :4] of 4x6 → 16 fails") << "4,4"
                                                       << "6,1"
                                                       << "16" << false << "";
    QTest::newRow("sliced x[:, :4] of 4x6 → 4,2,2") << "4,4"
                                                    << "6,1"
                                                    << "4,2,2" << true << "6,2,1";
    QTest::newRow("0-d → 1,1") << ""
                               << ""
                               << "1,1" << true << "1,1";
}

void TestTensorLayout::viewStrides() {
    QFETCH(QString, shape);
    QFETCH(QString, stride);
    QFETCH(QString, newShape);
    QFETCH(bool, possible);
    QFETCH(QString, expected);
    const auto strides = napkin::viewStrides(ints(shape), ints(stride), ints(newShape));
    QCOMPARE(strides.has_value(), possible);
    if (possible)
        QCOMPARE(text(*strides), expected);
}

void TestTensorLayout::inferSizeErrors_data() {
    QTest::addColumn<QString>("sizes");
    QTest::addColumn<qlonglong>("numel");
    QTest::addColumn<QString>("message");
    QTest::newRow("2x4 of 6") << "2,4" << 6LL << "shape '[2, 4]' is invalid for input of size 6";
    QTest::newRow("-1,4 of 6") << "-1,4" << 6LL << "shape '[-1, 4]' is invalid for input of size 6";
    QTest::newRow("two -1") << "-1,-1" << 6LL << "only one dimension can be inferred";
    QTest::newRow("negative size") << "-2,3" << 6LL << "invalid shape dimension -2";
    QTest::newRow("ambiguous -1 of 0") << "-1,0" << 0LL
                                       << "cannot reshape tensor of 0 elements into shape [-1, 0] because "
                                          "the unspecified dimension size -1 can be "
                                          "any value and is ambiguous";
}

void TestTensorLayout::inferSizeErrors() {
    QFETCH(QString, sizes);
    QFETCH(qlonglong, numel);
    QFETCH(QString, message);
    std::string error;
    QVERIFY(!inferSize(ints(sizes), numel, &error));
    QCOMPARE(QString::fromStdString(error), message);
}

void TestTensorLayout::dimensionOutOfRange() {
    const TensorLayout x = freshTensor({2, 3}, 4, 0);
    const TensorOpResult r = transpose(x, 0, 2);
    QCOMPARE(QString::fromStdString(r.error),
             QStringLiteral("Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
    QCOMPARE(text(transpose(x, -1, -2).layout.stride), QStringLiteral("1,3"));
}

void TestTensorLayout::elementOffsetsRowMajor() {
    const TensorLayout xt = transpose(freshTensor({2, 3}, 4, 0), 1, 0).layout;
    QCOMPARE(text(*elementOffsets(xt)), QStringLiteral("0,3,1,4,2,5"));
    const TensorLayout column = indexSelect(freshTensor({2, 3}, 4, 0), 1, 1, 1).layout;
    QCOMPARE(text(*elementOffsets(column)), QStringLiteral("1,4"));
    QVERIFY(!elementOffsets(freshTensor({100, 100}, 4, 0), 1000));
}

void TestTensorLayout::copiesAndViews() {
    const TensorLayout x = freshTensor({2, 3}, 4, 0);
    const TensorLayout xt = transpose(x, 1, 0).layout;
    // contiguous() of a contiguous tensor is the tensor itself
    QVERIFY(!contiguous(x, 7).copied);
    QCOMPARE(contiguous(x, 7).layout.storageId, 0);
    // ... of a transposed one, a copy with row-major strides in new storage
    const TensorOpResult c = contiguous(xt, 7);
    QVERIFY(c.copied);
    QCOMPARE(c.layout.storageId, 7);
    QCOMPARE(text(c.layout.stride), QStringLiteral("2,1"));
    QCOMPARE(c.layout.storageBytes(), 24LL);
    // clone keeps the strides of a dense permutation
    QCOMPARE(text(clone(xt, 8).layout.stride), QStringLiteral("1,3"));
    // reshape: a view when possible, else a copy
    QVERIFY(!reshape(x, {3, 2}, 9).copied);
    QVERIFY(reshape(xt, {6}, 9).copied);
}

void TestTensorLayout::dtypeSizes_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<qlonglong>("bytes");
    QTest::newRow("fp32") << "fp32" << 4LL;
    QTest::newRow("fp16") << "fp16" << 2LL;
    QTest::newRow("bf16") << "bf16" << 2LL;
    QTest::newRow("fp8") << "fp8" << 1LL;
    QTest::newRow("fp64") << "fp64" << 8LL;
    QTest::newRow("int64") << "int64" << 8LL;
}

void TestTensorLayout::dtypeSizes() {
    QFETCH(QString, name);
    QFETCH(qlonglong, bytes);
    const auto dtype = tensorDTypeFromName(name.toStdString());
    QVERIFY(dtype);
    QCOMPARE(dtype->bytes, bytes);
    QVERIFY(!tensorDTypeFromName("fp31"));
}

void TestTensorLayout::shapeText_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("sizes"); // or the error
    QTest::newRow("2,3") << "2,3" << true << "2,3";
    QTest::newRow("spaces") << " 2 , 3 " << true << "2,3";
    QTest::newRow("zero size") << "0,4" << true << "0,4";
    QTest::newRow("() is 0-d") << "()" << true << "";
    QTest::newRow("( ) with spaces is 0-d") << " ( ) " << true << "";
    QTest::newRow("blank is refused") << "" << false << "the shape is blank; write () for a 0-d tensor";
    QTest::newRow("spaces only are refused")
        << "  " << false << "the shape is blank; write () for a 0-d tensor";
    QTest::newRow("letters")
        << "2,x" << false << "expected sizes as non-negative integers separated by commas (2,3), got '2,x'";
    QTest::newRow("negative")
        << "-1" << false << "expected sizes as non-negative integers separated by commas (2,3), got '-1'";
    QTest::newRow("too many elements") << "100000,100000,100001" << false << "more than 1e15 elements";
}

void TestTensorLayout::shapeText() {
    QFETCH(QString, input);
    QFETCH(bool, ok);
    QFETCH(QString, sizes);
    std::string error;
    const auto shape = parseShapeText(input.toStdString(), &error);
    QCOMPARE(shape.has_value(), ok);
    QCOMPARE(ok ? text(*shape) : QString::fromStdString(error), sizes);
}

QTEST_APPLESS_MAIN(TestTensorLayout)
#include "tst_tensor_layout.moc"

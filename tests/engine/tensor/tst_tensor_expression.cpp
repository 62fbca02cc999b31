// SPDX-License-Identifier: GPL-3.0-or-later
// Chains in PyTorch's spelling, evaluated step by step; rows are what PyTorch 2.x reports for
// .shape, .stride(), .storage_offset() and data_ptr sharing.
#include "engine/tensor/tensor_expression.h"
#include "tensor_test_support.h"

#include <QtTest>

using namespace napkin;

class TestTensorExpression : public QObject {
    Q_OBJECT
private slots:
    void layouts_data();
    void layouts();
    void pytorchErrors_data();
    void pytorchErrors();
    void parseErrors_data();
    void parseErrors();
    void contiguousFixCopies24Bytes();
    void stepsNameTheirExpression();
};

void TestTensorExpression::layouts_data() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("outShape");
    QTest::addColumn<QString>("outStride");
    QTest::addColumn<qlonglong>("offset");
    QTest::addColumn<bool>("contiguous");
    QTest::addColumn<int>("storage");           // 0: x's storage; ≥1: a copy
    QTest::addColumn<qlonglong>("copiedBytes"); // over the whole chain, fp32

    QTest::newRow("x 4x4") << "4,4"
                           << "x"
                           << "4,4"
                           << "4,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("row x[0] of 2x3") << "2,3"
                                     << "x[0]"
                                     << "3"
                                     << "1" << 0LL << true << 0 << 0LL;
    QTest::newRow("column x[:,1] of 2x3") << "2,3"
                                          << "x[:, 1]"
                                          << "2"
                                          << "3" << 1LL << false << 0 << 0LL;
    QTest::newRow("view(3,2)") << "2,3"
                               << "x.view(3,2)"
                               << "3,2"
                               << "2,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("view(-1)") << "2,3"
                              << "x.view(-1)"
                              << "6"
                              << "1" << 0LL << true << 0 << 0LL;
    QTest::newRow("transpose(1,0)") << "2,3"
                                    << "x.transpose(1,0)"
                                    << "3,2"
                                    << "1,3" << 0LL << false << 0 << 0LL;
    QTest::newRow("contiguous fix") << "2,3"
                                    << "x.transpose(1,0).contiguous().view(2,3)"
                                    << "2,3"
                                    << "3,1" << 0LL << true << 1 << 24LL;
    QTest::newRow("contiguous of contiguous is x") << "2,3"
                                                   << "x.contiguous()"
                                                   << "2,3"
                                                   << "3,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("expand (3,1) → (3,4)") << "3,1"
                                          << "x.expand(3,4)"
                                          << "3,4"
                                          << "1,0" << 0LL << false << 0 << 0LL;
    QTest::newRow("expand then view(3,2,2)") << "3,1"
                                             << "x.expand(3,4).view(3,2,2)"
                                             << "3,2,2"
                                             << "1,0,0" << 0LL << false << 0 << 0LL;
    QTest::newRow("expand -1 and a leading dim") << "3"
                                                 << "x.expand(2,-1)"
                                                 << "2,3"
                                                 << "0,1" << 0LL << false << 0 << 0LL;
    QTest::newRow("unfold(0,2,1) of 5") << "5"
                                        << "x.unfold(0,2,1)"
                                        << "4,2"
                                        << "1,1" << 0LL << false << 0 << 0LL;
    QTest::newRow("unfold(0,3,2) of 7") << "7"
                                        << "x.unfold(0,3,2)"
                                        << "3,3"
                                        << "2,1" << 0LL << false << 0 << 0LL;
    QTest::newRow("head split") << "2,4,6"
                                << "x.view(2,4,2,3).transpose(1,2)"
                                << "2,2,4,3"
                                << "24,3,6,1" << 0LL << false << 0 << 0LL;
    QTest::newRow("reshape of transposed copies") << "2,3"
                                                  << "x.t().reshape(6)"
                                                  << "6"
                                                  << "1" << 0LL << true << 1 << 24LL;
    // a = torch.randn(2,2,2,2); b = a.permute(2,3,0,1): b.reshape(4,4) shares a's storage with stride
    // (1, 4); b.reshape(2,8) gets new storage with stride (8, 1).
    QTest::newRow("permuted reshape(4,4) is a view") << "2,2,2,2"
                                                     << "x.permute(2,3,0,1).reshape(4,4)"
                                                     << "4,4"
                                                     << "1,4" << 0LL << false << 0 << 0LL;
    QTest::newRow("permuted reshape(2,8) copies") << "2,2,2,2"
                                                  << "x.permute(2,3,0,1).reshape(2,8)"
                                                  << "2,8"
                                                  << "8,1" << 0LL << true << 1 << 64LL;
    QTest::newRow("reshape of contiguous is a view") << "2,3"
                                                     << "x.reshape(3,2)"
                                                     << "3,2"
                                                     << "2,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("diagonal of 3x3") << "3,3"
                                     << "x.diagonal()"
                                     << "3"
                                     << "4" << 0LL << false << 0 << 0LL;
    QTest::newRow("diagonal(1) of 3x4") << "3,4"
                                        << "x.diagonal(1)"
                                        << "3"
                                        << "5" << 1LL << false << 0 << 0LL;
    QTest::newRow("diagonal(-1) of 3x4") << "3,4"
                                         << "x.diagonal(-1)"
                                         << "2"
                                         << "5" << 4LL << false << 0 << 0LL;
    QTest::newRow("clone of transposed keeps strides") << "2,3"
                                                       << "x.transpose(1,0).clone()"
                                                       << "3,2"
                                                       << "1,3" << 0LL << false << 1 << 24LL;
    QTest::newRow("clone of expanded is contiguous") << "3,1"
                                                     << "x.expand(3,4).clone()"
                                                     << "3,4"
                                                     << "4,1" << 0LL << true << 1 << 48LL;
    // clone() of a tensor that is not non-overlapping and dense: dense strides in the input's stride
    // order (ATen's infer_dense_strides). Issue 20's two rows, then more; all read from PyTorch 1.13.
    QTest::newRow("clone of expand+transpose") << "4,3,4"
                                               << "x.expand(2,4,-1,4).transpose(3,-2).clone()"
                                               << "2,4,4,3"
                                               << "48,12,1,4" << 0LL << false << 1 << 384LL;
    QTest::newRow("clone of a diagonal") << "5,5,5"
                                         << "x.diagonal(-1,1,0).squeeze(-1).clone()"
                                         << "5,4"
                                         << "1,5" << 0LL << false << 1 << 80LL;
    QTest::newRow("clone of a diagonal, transposed back, views") << "5,5,5"
                                                                 << "x.diagonal(-1,1,0).clone().t().view(20)"
                                                                 << "20"
                                                                 << "1" << 0LL << true << 1 << 80LL;
    QTest::newRow("clone of a transposed strided slice") << "2,6"
                                                         << "x[:, ::2].T.clone()"
                                                         << "3,2"
                                                         << "1,3" << 0LL << false << 1 << 24LL;
    QTest::newRow("clone of an unfold (equal strides tie)") << "6"
                                                            << "x.unfold(0,3,1).clone()"
                                                            << "4,3"
                                                            << "3,1" << 0LL << true << 1 << 48LL;
    QTest::newRow("clone of expanded, transposed: stride 0 stays") << "3,1"
                                                                   << "x.expand(3,4).t().clone()"
                                                                   << "4,3"
                                                                   << "3,1" << 0LL << true << 1 << 48LL;
    QTest::newRow("clone of expanded, permuted") << "2,1,3"
                                                 << "x.expand(2,4,3).permute(2,0,1).clone()"
                                                 << "3,2,4"
                                                 << "4,12,1" << 0LL << false << 1 << 96LL;
    QTest::newRow("clone of a broadcast new axis, transposed")
        << "2,3"
        << "x.unsqueeze(1).expand(2,2,3).transpose(0,2).clone()"
        << "3,2,2"
        << "1,3,6" << 0LL << false << 1 << 48LL;
    // A 0-d tensor expands with every stride 0, a size of 1 included (torch 1.13: x.expand(1).stride() is
    // (0,)); found by the random-chain comparison with PyTorch.
    QTest::newRow("0-d expand(1)") << ""
                                   << "x.expand(1)"
                                   << "1"
                                   << "0" << 0LL << true << 0 << 0LL;
    QTest::newRow("0-d expand(2,1)") << ""
                                     << "x.expand(2,1)"
                                     << "2,1"
                                     << "0,0" << 0LL << false << 0 << 0LL;
    QTest::newRow("slice with step") << "10"
                                     << "x[0:3:2]"
                                     << "2"
                                     << "2" << 0LL << false << 0 << 0LL;
    QTest::newRow("negative start") << "10"
                                    << "x[-3:]"
                                    << "3"
                                    << "1" << 7LL << true << 0 << 0LL;
    QTest::newRow("stop clamps") << "10"
                                 << "x[5:100]"
                                 << "5"
                                 << "1" << 5LL << true << 0 << 0LL;
    QTest::newRow("empty slice") << "10"
                                 << "x[8:2]"
                                 << "0"
                                 << "1" << 8LL << true << 0 << 0LL;
    QTest::newRow("negative index") << "2,3"
                                    << "x[-1]"
                                    << "3"
                                    << "1" << 3LL << true << 0 << 0LL;
    QTest::newRow("last column") << "2,3"
                                 << "x[:, -1]"
                                 << "2"
                                 << "3" << 2LL << false << 0 << 0LL;
    QTest::newRow("ellipsis") << "2,3,4"
                              << "x[..., 1]"
                              << "2,3"
                              << "12,4" << 1LL << false << 0 << 0LL;
    QTest::newRow("None") << "2,3"
                          << "x[None]"
                          << "1,2,3"
                          << "6,3,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("None between slices") << "2,3"
                                         << "x[:, None, 1:]"
                                         << "2,1,2"
                                         << "3,3,1" << 1LL << false << 0 << 0LL;
    QTest::newRow("slice then T") << "4,4"
                                  << "x[:, 1:3].T"
                                  << "2,4"
                                  << "1,4" << 1LL << false << 0 << 0LL;
    QTest::newRow("permute") << "2,3,4"
                             << "x.permute(2,0,1)"
                             << "4,2,3"
                             << "1,12,4" << 0LL << false << 0 << 0LL;
    QTest::newRow("T reverses all dims") << "2,3,4"
                                         << "x.T"
                                         << "4,3,2"
                                         << "1,4,12" << 0LL << false << 0 << 0LL;
    QTest::newRow("mT") << "2,3,4"
                        << "x.mT"
                        << "2,4,3"
                        << "12,1,4" << 0LL << false << 0 << 0LL;
    QTest::newRow("narrow") << "4,5"
                            << "x.narrow(1,1,3)"
                            << "4,3"
                            << "5,1" << 1LL << false << 0 << 0LL;
    QTest::newRow("select(-1,2)") << "4,5"
                                  << "x.select(-1,2)"
                                  << "4"
                                  << "5" << 2LL << false << 0 << 0LL;
    QTest::newRow("squeeze()") << "1,3,1"
                               << "x.squeeze()"
                               << "3"
                               << "1" << 0LL << true << 0 << 0LL;
    QTest::newRow("squeeze(0)") << "1,3,1"
                                << "x.squeeze(0)"
                                << "3,1"
                                << "1,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("squeeze(dim=1) keeps size 3") << "1,3,1"
                                                 << "x.squeeze(dim=1)"
                                                 << "1,3,1"
                                                 << "3,1,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("unsqueeze(-1)") << "2,3"
                                   << "x.unsqueeze(-1)"
                                   << "2,3,1"
                                   << "3,1,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("flatten(1) is a view") << "2,3,4"
                                          << "x.flatten(1)"
                                          << "2,12"
                                          << "12,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("flatten of transposed copies") << "2,3,4"
                                                  << "x.transpose(0,1).flatten()"
                                                  << "24"
                                                  << "1" << 0LL << true << 1 << 96LL;
    QTest::newRow("flatten keywords") << "2,3,4"
                                      << "x.flatten(start_dim=0, end_dim=1)"
                                      << "6,4"
                                      << "4,1" << 0LL << true << 0 << 0LL;
    QTest::newRow("view with a tuple") << "2,3"
                                       << "x.view((3, 2))"
                                       << "3,2"
                                       << "2,1" << 0LL << true << 0 << 0LL;
}

void TestTensorExpression::layouts() {
    QFETCH(QString, shape);
    QFETCH(QString, expr);
    QFETCH(QString, outShape);
    QFETCH(QString, outStride);
    QFETCH(qlonglong, offset);
    QFETCH(bool, contiguous);
    QFETCH(int, storage);
    QFETCH(qlonglong, copiedBytes);
    const TensorEvaluation e = evaluateTensorExpression(expr.toStdString(), ints(shape), 4);
    QVERIFY2(!e.error, e.error ? e.error->message.c_str() : "");
    const TensorLayout& last = e.steps.back().layout;
    QCOMPARE(text(last.shape), outShape);
    QCOMPARE(text(last.stride), outStride);
    QCOMPARE(last.offset, offset);
    QCOMPARE(isContiguous(last), contiguous);
    QCOMPARE(last.storageId, storage);
    int64_t copied = 0;
    for (const TensorStep& s : e.steps)
        copied += s.bytesCopied;
    QCOMPARE(copied, copiedBytes);
}

void TestTensorExpression::pytorchErrors_data() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("expr");
    QTest::addColumn<int>("step");
    QTest::addColumn<QString>("message");
    const QString viewError =
        "view size is not compatible with input tensor's size and stride (at least one dimension "
        "spans across two contiguous subspaces). Use .reshape(...) instead.";
    QTest::newRow("transposed view") << "2,3"
                                     << "x.transpose(1,0).view(2,3)" << 2 << viewError;
    QTest::newRow("expanded view(12)") << "3,1"
                                       << "x.expand(3,4).view(12)" << 2 << viewError;
    QTest::newRow("column view") << "2,3"
                                 << "x[:, 1:].view(4)" << 2 << viewError;
    // The clone's strides decide whether a later view works (torch 1.13 refuses both).
    QTest::newRow("view of a diagonal's clone") << "5,5,5"
                                                << "x.diagonal(-1,1,0).clone().view(20)" << 3 << viewError;
    QTest::newRow("view of a strided slice's clone") << "2,6"
                                                     << "x[:, ::2].T.clone().view(6)" << 4 << viewError;
    QTest::newRow("wrong size") << "2,3"
                                << "x.view(2,4)" << 1 << "shape '[2, 4]' is invalid for input of size 6";
    // Found by fuzzing: the product of the sizes overflowed int64 (undefined behaviour) before the check.
    QTest::newRow("sizes overflowing int64")
        << "2,3"
        << "x.view(4294967296,4294967296,4)" << 1
        << "shape '[4294967296, 4294967296, 4]' is invalid for input of size 6";
    // Found by the CI fuzz run: stride × step overflowed int64 (undefined behaviour).
    QTest::newRow("slice step overflowing int64")
        << "4,4"
        << "x[:3:2777777773888888888]" << 1
        << "slice step 2777777773888888888 is too large: stride × step "
           "overflows int64";
    QTest::newRow("unfold step overflowing int64")
        << "4,3"
        << "x.unfold(0,2,4611686018427387904)" << 1
        << "unfold step 4611686018427387904 is too large: step × stride "
           "overflows int64";
    QTest::newRow("expand beyond int64")
        << "1"
        << "x.expand(4294967296,4294967296,4)" << 1
        << "expand: the expanded tensor [4294967296, 4294967296, 4] would have more "
           "than 2^50 elements, Napkin's limit";
    QTest::newRow("dim out of range")
        << "2,3"
        << "x.transpose(0,2)" << 1
        << "Dimension out of range (expected to be in range of [-2, 1], but got 2)";
    QTest::newRow("negative step") << "10"
                                   << "x[::-1]" << 1 << "step must be greater than zero";
    QTest::newRow("index out of bounds")
        << "2,3"
        << "x[2]" << 1 << "index 2 is out of bounds for dimension 0 with size 2";
    // Indexing names the item's place in the index as the dimension; a 0-d tensor refuses a lone int or
    // slice in select()'s and slice()'s words, a tuple with "too many indices" (all torch 1.13).
    QTest::newRow("index after None names its place")
        << "2,3"
        << "x[None, 5]" << 1 << "index 5 is out of bounds for dimension 1 with size 2";
    QTest::newRow("index after None and ... names its place")
        << "2,3"
        << "x[None, ..., 5]" << 1 << "index 5 is out of bounds for dimension 2 with size 3";
    QTest::newRow("0-d x[0]") << ""
                              << "x[0]" << 1
                              << "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                 "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number";
    QTest::newRow("0-d x[-1]") << ""
                               << "x[-1]" << 1 << "index -1 is out of bounds for dimension 0 with size 0";
    QTest::newRow("0-d x[:]") << ""
                              << "x[:]" << 1 << "slice() cannot be applied to a 0-dim tensor.";
    QTest::newRow("0-d x[None, 0]") << ""
                                    << "x[None, 0]" << 1 << "too many indices for tensor of dimension 0";
    QTest::newRow("too many indices") << "2,3"
                                      << "x[0, 0, 0]" << 1 << "too many indices for tensor of dimension 2";
    QTest::newRow("t() of 3-D") << "2,3,4"
                                << "x.t()" << 1
                                << "t() expects a tensor with <= 2 dimensions, but self is 3D";
    QTest::newRow("two -1") << "2,3"
                            << "x.view(-1,-1)" << 1 << "only one dimension can be inferred";
    QTest::newRow("unfold too big") << "5"
                                    << "x.unfold(0,6,1)" << 1
                                    << "maximum size for tensor at dimension 0 is 5 but size is 6";
    QTest::newRow("expand non-singleton") << "3,2"
                                          << "x.expand(3,4)" << 1
                                          << "The expanded size of the tensor (4) must match the existing "
                                             "size (2) at non-singleton dimension 1.  Target "
                                             "sizes: [3, 4].  Tensor sizes: [3, 2]";
    QTest::newRow("select out of range")
        << "3"
        << "x.select(0,3)" << 1 << "select(): index 3 out of range for tensor of size [3] at dimension 0";
    QTest::newRow("narrow past the end")
        << "3"
        << "x.narrow(0,1,3)" << 1 << "start (1) + length (3) exceeds dimension size (3).";
    QTest::newRow("mT of 1-D")
        << "3"
        << "x.mT" << 1 << "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.";
    QTest::newRow("permute wrong length")
        << "2,3"
        << "x.permute(1,0,2)" << 1
        << "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
           "desired "
           "ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 3";
    QTest::newRow("diagonal same dims")
        << "3,3"
        << "x.diagonal(0,1,1)" << 1 << "diagonal dimensions cannot be identical 1, 1";
}

void TestTensorExpression::pytorchErrors() {
    QFETCH(QString, shape);
    QFETCH(QString, expr);
    QFETCH(int, step);
    QFETCH(QString, message);
    const TensorEvaluation e = evaluateTensorExpression(expr.toStdString(), ints(shape), 4);
    QVERIFY(e.error);
    QCOMPARE(e.error->step, step);
    QCOMPARE(static_cast<int>(e.steps.size()), step); // the steps before the failure are kept
    QCOMPARE(QString::fromStdString(e.error->message), message);
    QVERIFY(!e.error->position);
}

void TestTensorExpression::parseErrors_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<int>("position");
    QTest::addColumn<int>("step");
    QTest::addColumn<QString>("reason");
    QTest::newRow("unclosed call") << "x.view(2,3" << 10 << 1 << "expected ',' or ')' at the end";
    QTest::newRow("not x") << "y.view(2)" << 0 << 1 << "expected 'x' at the start";
    QTest::newRow("unknown op") << "x.foo(1)" << 2 << 1 << "unknown operation 'foo'";
    QTest::newRow("missing argument")
        << "x.transpose(1)" << 13 << 1 << "transpose() missing required argument 'dim1'";
    QTest::newRow("property called") << "x.view(6).T()" << 11 << 2
                                     << "'T' is a property: write x.T, not x.T()";
    QTest::newRow("zero step") << "x[1:2:0]" << 6 << 1 << "slice step cannot be zero";
    QTest::newRow("float argument") << "x.view(2, 1.5)" << 10 << 1
                                    << "expected an integer, found a non-integer number";
    QTest::newRow("after two good steps") << "x.t().T.foo" << 8 << 3 << "unknown operation 'foo'";
    QTest::newRow("junk between calls") << "x.t() + 1" << 6 << 2 << "expected '.' or '[', found '+'";
    QTest::newRow("two ellipses") << "x[..., ...]" << 7 << 1
                                  << "an index can only have a single ellipsis ('...')";
    // PyTorch 1.13 refuses these with a TypeError before it looks at the tensor (its messages, verbatim).
    QTest::newRow("expand() with no sizes")
        << "x.expand()" << 9 << 1 << "expand() missing 1 required positional arguments: \"size\"";
    QTest::newRow("reshape() with no shape")
        << "x.reshape()" << 10 << 1 << "reshape() missing 1 required positional arguments: \"shape\"";
    QTest::newRow("permute() with no dims")
        << "x.permute()" << 10 << 1 << "permute() missing 1 required positional arguments: \"dims\"";
    QTest::newRow("view() with nothing")
        << "x.view()" << 7 << 1
        << "view() received an invalid combination of arguments - got (), but expected one of: "
           "(torch.dtype dtype), (tuple of SymInts size)";
}

void TestTensorExpression::parseErrors() {
    QFETCH(QString, expr);
    QFETCH(int, position);
    QFETCH(int, step);
    QFETCH(QString, reason);
    const ParsedTensorExpression parsed = parseTensorExpression(expr.toStdString());
    QCOMPARE(QString::fromStdString(parsed.error), reason);
    QCOMPARE(static_cast<int>(parsed.errorAt), position);
    const TensorEvaluation e = evaluateTensorExpression(expr.toStdString(), {2, 3}, 4);
    QVERIFY(e.error);
    QCOMPARE(e.error->step, step);
    QCOMPARE(e.error->position.value_or(9999), static_cast<std::size_t>(position));
    QCOMPARE(QString::fromStdString(e.error->message),
             QStringLiteral("position %1: %2").arg(position).arg(reason));
}

void TestTensorExpression::contiguousFixCopies24Bytes() {
    const TensorEvaluation e = evaluateTensorExpression("x.transpose(1,0).contiguous().view(2,3)", {2, 3}, 4);
    QVERIFY(!e.error);
    QCOMPARE(e.steps.size(), std::size_t{4});
    QVERIFY(e.steps[1].isView);
    QCOMPARE(e.steps[1].layout.storageId, 0);
    QVERIFY(!e.steps[2].isView);
    QCOMPARE(e.steps[2].bytesCopied, 24LL);
    QCOMPARE(e.steps[2].bytesAllocated, 24LL);
    QCOMPARE(e.steps[2].layout.storageId, 1);
    QCOMPARE(text(e.steps[2].layout.shape), QStringLiteral("3,2"));
    QCOMPARE(text(e.steps[2].layout.stride), QStringLiteral("2,1"));
    QVERIFY(e.steps[3].isView);
    QCOMPARE(e.steps[3].layout.storageId, 1);
    // fp16: half the bytes
    const TensorEvaluation half = evaluateTensorExpression("x.t().contiguous()", {2, 3}, 2);
    QCOMPARE(half.steps[2].bytesCopied, 12LL);
}

void TestTensorExpression::stepsNameTheirExpression() {
    const TensorEvaluation e = evaluateTensorExpression(" x[:, 1:3] .T ", {4, 4}, 4);
    QCOMPARE(e.steps.size(), std::size_t{3});
    QCOMPARE(QString::fromStdString(e.steps[0].expr), QStringLiteral("x"));
    QCOMPARE(QString::fromStdString(e.steps[1].expr), QStringLiteral("x[:, 1:3]"));
    QCOMPARE(QString::fromStdString(e.steps[2].expr), QStringLiteral("x[:, 1:3] .T"));
}

QTEST_APPLESS_MAIN(TestTensorExpression)
#include "tst_tensor_expression.moc"

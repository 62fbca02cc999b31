// SPDX-License-Identifier: GPL-3.0-or-later
// napkin-cli tensor in-process: the --shape contract with the arguments a script really passes, an empty
// one included (the CMake contract tests cannot pass an empty argument through their lists).
#include "cli/cli_app.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <sstream>

using namespace napkin;

class TestCliTensor : public QObject {
    Q_OBJECT
private slots:
    void shapeArgument_data();
    void shapeArgument();
};

void TestCliTensor::shapeArgument_data() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<int>("exit");
    QTest::addColumn<QString>("result"); // numel of x, or the one line on stderr
    QTest::newRow("2,3") << "2,3" << 0 << "6";
    QTest::newRow("() is a 0-d tensor") << "()" << 0 << "1";
    QTest::newRow("0,4 has no elements") << "0,4" << 0 << "0";
    QTest::newRow("empty argument, as from an unset variable")
        << "" << 2 << "napkin-cli: --shape: empty value; write () for a 0-d tensor\n";
    QTest::newRow("spaces only") << "   " << 2
                                 << "napkin-cli: --shape: empty value; write () for a 0-d tensor\n";
}

void TestCliTensor::shapeArgument() {
    QFETCH(QString, shape);
    QFETCH(int, exit);
    QFETCH(QString, result);
    std::ostringstream out, err;
    QCOMPARE(cli::run({"tensor", "--shape", shape.toStdString(), "x", "--json"}, out, err), exit);
    if (exit != 0) {
        QVERIFY(out.str().empty());
        QCOMPARE(QString::fromStdString(err.str()), result);
        return;
    }
    QVERIFY(err.str().empty());
    const nlohmann::json doc = nlohmann::json::parse(out.str());
    QCOMPARE(QString::number(doc["steps"][0]["numel"].get<qlonglong>()), result);
}

QTEST_APPLESS_MAIN(TestCliTensor)
#include "tst_cli_tensor.moc"

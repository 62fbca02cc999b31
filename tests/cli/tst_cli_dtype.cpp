// SPDX-License-Identifier: GPL-3.0-or-later
// napkin-cli dtype in-process: VALUE parsing and the agreement of `bits` with `value` in the JSON.
#include "cli/cli_app.h"
#include "cli/dtype_command.h"
#include "engine/numerics/float_format.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cmath>
#include <sstream>

using namespace napkin;

class TestCliDtype : public QObject {
    Q_OBJECT
private slots:
    void parseValue_data();
    void parseValue();
    void bitsAgreeWithValue();
};

void TestCliDtype::parseValue_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<double>("value");
    QTest::newRow("1e-8") << "1e-8" << true << 1e-8;
    QTest::newRow("negative") << "-1.5" << true << -1.5;
    QTest::newRow("suffix") << "1.5k" << true << 1500.0;
    QTest::newRow("inf") << "inf" << true << HUGE_VAL;
    QTest::newRow("-inf") << "-inf" << true << -HUGE_VAL;
    QTest::newRow("Infinity") << "Infinity" << true << HUGE_VAL;
    QTest::newRow("nan") << "nan" << true << std::nan("");
    QTest::newRow("word") << "seventy" << false << 0.0;
    QTest::newRow("empty") << "" << false << 0.0;
    QTest::newRow("trailing junk") << "1e-8x" << false << 0.0;
}

void TestCliDtype::parseValue() {
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(double, value);
    std::string error;
    const std::optional<double> parsed = cli::parseDtypeValue(text.toStdString(), error);
    QCOMPARE(parsed.has_value(), ok);
    QCOMPARE(error.empty(), ok);
    if (ok && std::isnan(value))
        QVERIFY(std::isnan(*parsed));
    else if (ok)
        QCOMPARE(*parsed, value);
}

// Every entry's value is what its bits decode to, and the entries come in the order given.
void TestCliDtype::bitsAgreeWithValue() {
    std::ostringstream out, err;
    const std::vector<std::string> inputs = {"0.1", "1e-8", "65504", "448", "3.14159", "1e5", "-2", "nan"};
    std::vector<std::string> args = {"dtype", "--json"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    QCOMPARE(cli::run(args, out, err), 0);
    QVERIFY(err.str().empty());
    const auto doc = nlohmann::json::parse(out.str());
    QCOMPARE(doc["values"].size(), inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const auto& entry = doc["values"][i];
        QCOMPARE(entry["input"].get<std::string>(), inputs[i]);
        QCOMPARE(entry["formats"].size(), kFloatFormats.size());
        for (std::size_t k = 0; k < kFloatFormats.size(); ++k) {
            const auto& f = entry["formats"][k];
            QCOMPARE(f["name"].get<std::string>(), std::string(floatFormatName(kFloatFormats[k])));
            const auto bits =
                static_cast<std::uint32_t>(std::stoul(f["bits"].get<std::string>(), nullptr, 16));
            const double decoded = decodeFloat(kFloatFormats[k], bits);
            if (!std::isfinite(decoded))
                QCOMPARE(f["value"].get<std::string>(), std::string(std::isnan(decoded) ? "nan"
                                                                    : decoded > 0       ? "inf"
                                                                                        : "-inf"));
            else
                QCOMPARE(f["value"].get<double>(), decoded);
        }
    }
}

QTEST_APPLESS_MAIN(TestCliDtype)
#include "tst_cli_dtype.moc"

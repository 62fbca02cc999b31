// SPDX-License-Identifier: GPL-3.0-or-later
// napkin-cli compare's text: after the memory, the "time by phase" table (predicted, measured,
// predicted/measured for forward, backward, optimizer step, zero_grad and the step), the prediction's basis,
// and the sentence saying a GPU's figures are not comparable with a CPU run where that holds. The run is
// the shipped CPU trace of a one-layer GPT-2 (tests/engine/measured/data); nothing here is timed.
#include "tests/support/cli_outcome.h"

#include <QtTest>

using napkin::test::CliOutcome;
using napkin::test::runCli;

namespace {

std::vector<std::string> compareArgs(const QStringList& extra) {
    std::vector<std::string> args = {"compare",
                                     "--trace",
                                     NAPKIN_MEASURED_DATA "/cpu_trace_gpt2_one_layer.json",
                                     "--model",
                                     "transformer",
                                     "--d-model",
                                     "24",
                                     "--heads",
                                     "2",
                                     "--layers",
                                     "1",
                                     "--vocab",
                                     "17",
                                     "--seq",
                                     "5",
                                     "--ffn-dim",
                                     "40",
                                     "--batch",
                                     "2",
                                     "--dropout",
                                     "off",
                                     "--activations-of",
                                     "pytorch-eager",
                                     "--optimizer-implementation",
                                     "single-tensor"};
    for (const QString& e : extra)
        args.push_back(e.toStdString());
    return args;
}

} // namespace

class TestCliCompare : public QObject {
    Q_OBJECT
private slots:
    void timeByPhaseText_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QStringList>("present");
        QTest::addColumn<QStringList>("absent");
        // H100's published figures have no fp32 GEMM (the run is fp32): not predicted, and said so.
        QTest::newRow("a GPU's figures") << QStringList{}
                                         << QStringList{"time by phase (predicted for H100-SXM;",
                                                        "the ranges inside ProfilerStep#2",
                                                        "step time not predicted",
                                                        "not comparable",
                                                        "  forward ",
                                                        "  backward ",
                                                        "  optimizer step ",
                                                        "  zero_grad ",
                                                        "  step ",
                                                        "predicted/measured"}
                                         << QStringList{"not named", "not modelled"};
        const QString profiles = QStringLiteral(NAPKIN_CLI_PROFILES);
        QTest::newRow("this CPU's figures")
            << QStringList{"--gpu-catalog",      profiles + "/this_cpu_catalog.json", "--gpu", "this-cpu",
                           "--hardware-profile", profiles + "/this_cpu_round.json"}
            << QStringList{"time by phase (predicted for this-cpu from "
                           "tests/cli/profiles/this_cpu_round.json",
                           "  step ", "not modelled"} // zero_grad: no ledger row
            << QStringList{"not comparable", "not named", "not predicted"};
    }
    void timeByPhaseText() {
        QFETCH(QStringList, extra);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        const CliOutcome o = runCli(compareArgs(extra));
        QCOMPARE(o.status, 0);
        const QString out = QString::fromStdString(o.out);
        const qsizetype table = out.indexOf(QStringLiteral("time by phase"));
        QVERIFY(table > out.indexOf(QStringLiteral("predicted peak"))); // after the memory
        for (const QString& text : present)
            QVERIFY2(out.contains(text), qPrintable(text + QStringLiteral(" not in:\n") + out));
        for (const QString& text : absent)
            QVERIFY2(!out.contains(text), qPrintable(text + QStringLiteral(" in:\n") + out));
    }
};

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_cli_compare.moc"

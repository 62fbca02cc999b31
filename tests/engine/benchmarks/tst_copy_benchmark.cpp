// SPDX-License-Identifier: GPL-3.0-or-later
// The copy benchmark's pure rules, run on the CPU: size lists, the cases, the summary and bytes/s, the
// catalog's host-link promise, the allocation check's expectation, and the JSON the CLI prints.
#include "engine/benchmarks/copy_sweep.h"
#include "engine/compute/copy_benchmark.h"
#include "engine/report/copy_report.h"

#include <QtTest>

#include <algorithm>

using namespace napkin;

class TestCopyBenchmark : public QObject {
    Q_OBJECT
private slots:
    void defaultSizesArePowersOfFour();
    void parsesSizes_data();
    void parsesSizes();
    void refusesBadSizes_data();
    void refusesBadSizes();
    void casesCoverDirectionsAndMemories();
    void summaryGivesBytesPerSecond();
    void zeroMedianGivesZeroNotInfinity();
    void hostLinkPromise_data();
    void hostLinkPromise();
    void customGpuHostLinkIsValidated();
    void allocExpectationIsTheLectures();
    void sweepJsonHasTheContract();
    void failedCaseJsonHasNoTiming();
    void allocJson();
    void cpuCannotCopy();
};

void TestCopyBenchmark::defaultSizesArePowersOfFour() {
    const std::vector<std::uint64_t> sizes = defaultCopySizes();
    QCOMPARE(sizes.size(), std::size_t{10});
    QCOMPARE(sizes.front(), std::uint64_t{4096});
    QCOMPARE(sizes.back(), std::uint64_t{1} << 30);
    for (std::size_t i = 1; i < sizes.size(); ++i)
        QCOMPARE(sizes[i], 4 * sizes[i - 1]);
}

void TestCopyBenchmark::parsesSizes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<qulonglong>>("bytes");
    QTest::newRow("plain bytes") << "512" << QList<qulonglong>{512};
    QTest::newRow("K is 1024") << "4K" << QList<qulonglong>{4096};
    QTest::newRow("KiB lower case") << "4kib" << QList<qulonglong>{4096};
    QTest::newRow("M and G") << "1M,1G" << QList<qulonglong>{1048576, 1073741824};
    QTest::newRow("B suffix") << "100B" << QList<qulonglong>{100};
    QTest::newRow("4 GiB is the limit") << "4G" << QList<qulonglong>{4294967296ULL};
    QTest::newRow("order kept") << "1M,4K" << QList<qulonglong>{1048576, 4096};
}

void TestCopyBenchmark::parsesSizes() {
    QFETCH(QString, text);
    QFETCH(QList<qulonglong>, bytes);
    const std::vector<std::uint64_t> got = parseCopySizes(text.toStdString());
    QCOMPARE(got.size(), static_cast<std::size_t>(bytes.size()));
    for (qsizetype i = 0; i < bytes.size(); ++i)
        QCOMPARE(got[static_cast<std::size_t>(i)], static_cast<std::uint64_t>(bytes[i]));
}

void TestCopyBenchmark::refusesBadSizes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << ""
                           << "'' is not a size";
    QTest::newRow("trailing comma") << "4K,"
                                    << "'' is not a size";
    QTest::newRow("zero") << "0"
                          << "'0' is zero bytes";
    QTest::newRow("negative") << "-4K"
                              << "'-4K' is not a size";
    QTest::newRow("fraction") << "1.5M"
                              << "unknown unit";
    QTest::newRow("decimal unit") << "4KB"
                                  << "unknown unit";
    QTest::newRow("above 4 GiB") << "5G"
                                 << "above the 4 GiB limit";
    QTest::newRow("4 GiB + 1") << "4294967297"
                               << "above the 4 GiB limit";
    QTest::newRow("huge digits") << "99999999999999999999999K"
                                 << "above the 4 GiB limit";
    QTest::newRow("word") << "4K,lots"
                          << "'lots' is not a size";
}

void TestCopyBenchmark::refusesBadSizes() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
        (void)parseCopySizes(text.toStdString());
        QFAIL("accepted a bad size list");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
    }
}

void TestCopyBenchmark::casesCoverDirectionsAndMemories() {
    const std::vector<CopyCase> cases = copyCases({4096, 1 << 20});
    QCOMPARE(cases.size(), std::size_t{8});
    for (std::uint64_t bytes : {std::uint64_t{4096}, std::uint64_t{1} << 20})
        for (CopyDirection d : {CopyDirection::hostToDevice, CopyDirection::deviceToHost})
            for (HostMemory m : {HostMemory::pageable, HostMemory::pinned})
                QCOMPARE(std::count_if(cases.begin(), cases.end(),
                                       [&](const CopyCase& c) {
                                           return c.bytes == bytes && c.direction == d && c.hostMemory == m;
                                       }),
                         1);
    QCOMPARE(copyDirectionName(cases[0].direction), std::string_view("h2d"));
    QCOMPARE(hostMemoryName(cases[1].hostMemory), std::string_view("pinned"));
    QCOMPARE(copyDirectionName(cases[2].direction), std::string_view("d2h"));
}

void TestCopyBenchmark::summaryGivesBytesPerSecond() {
    CopyResult r;
    r.copy.bytes = std::uint64_t{1} << 30;
    // Sorted 10, 15, 20, 30, 40 ms: median 20; p20 at rank 0.8 = 10 + 0.8 * 5 = 14; p80 at rank 3.2 = 32.
    summarizeCopy(r, {0.040, 0.010, 0.020, 0.030, 0.015});
    QCOMPARE(r.timing.samples, 5);
    QCOMPARE(r.timing.medianSeconds, 0.020);
    QVERIFY(qFuzzyCompare(r.timing.p20Seconds, 0.014));
    QVERIFY(qFuzzyCompare(r.timing.p80Seconds, 0.032));
    QVERIFY(qFuzzyCompare(r.bytesPerSecond, 1073741824.0 / 0.020));
}

void TestCopyBenchmark::zeroMedianGivesZeroNotInfinity() {
    CopyResult r;
    r.copy.bytes = 4096;
    summarizeCopy(r, {});
    QCOMPARE(r.bytesPerSecond, 0.0);
}

void TestCopyBenchmark::hostLinkPromise_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("promise"); // 0: none
    QTest::newRow("H100 SXM: PCIe Gen5, 64 GB/s a direction") << "H100-SXM" << 64e9;
    QTest::newRow("H100 PCIe") << "H100-PCIe" << 64e9;
    QTest::newRow("H200") << "H200" << 64e9;
    QTest::newRow("A100 SXM: PCIe Gen4, 32 GB/s a direction") << "A100-SXM" << 32e9;
    QTest::newRow("RTX 4090: not in the datasheet here") << "RTX-4090" << 0.0;
    QTest::newRow("unknown GPU") << "GTX-280" << 0.0;
    QTest::newRow("no catalog id") << "" << 0.0;
}

void TestCopyBenchmark::hostLinkPromise() {
    QFETCH(QString, id);
    QFETCH(double, promise);
    std::string source;
    const std::optional<double> got =
        napkin::hostLinkPromise(GpuCatalog::builtIn(), id.toStdString(), &source);
    if (promise == 0) {
        QVERIFY(!got);
        QVERIFY(source.empty());
        return;
    }
    QVERIFY(got);
    QCOMPARE(*got, promise);
    QVERIFY2(source.find("datasheet") != std::string::npos, source.c_str());
}

void TestCopyBenchmark::customGpuHostLinkIsValidated() {
    GpuCatalog catalog;
    const std::string bad = catalog.addFromJson(
        R"({"gpus":[{"id":"X","memory_bytes":1e9,"memory_bandwidth_bytes_per_second":1e11,"dense_peak_flops_per_second":{"fp32":1e12},)"
        R"("host_link_bytes_per_second_per_direction":-1}]})");
    QVERIFY2(bad.find("host_link_bytes_per_second_per_direction") != std::string::npos, bad.c_str());
    QVERIFY(
        catalog
            .addFromJson(
                R"({"gpus":[{"id":"X","memory_bytes":1e9,"memory_bandwidth_bytes_per_second":1e11,"dense_peak_flops_per_second":)"
                R"({"fp32":1e12},"host_link_bytes_per_second_per_direction":16e9}]})")
            .empty());
    std::string source;
    QCOMPARE(napkin::hostLinkPromise(catalog, "X", &source).value_or(0), 16e9);
    QCOMPARE(source, std::string("user supplied"));
}

void TestCopyBenchmark::allocExpectationIsTheLectures() {
    QCOMPARE(tensorsBytes(kAllocCheckTensors, kAllocCheckSide, kAllocCheckSide, 4), 8192.0);
    QCOMPARE(tensorsBytes(1, 3, 5, 2), 30.0);
}

void TestCopyBenchmark::sweepJsonHasTheContract() {
    CopySweep sweep;
    sweep.deviceName = "NVIDIA H100 80GB HBM3";
    sweep.catalogId = "H100-SXM";
    sweep.promisedBytesPerSecond = 64e9;
    sweep.promiseSource = "datasheet";
    CopyResult r;
    r.copy = {CopyDirection::deviceToHost, HostMemory::pinned, 1 << 20};
    r.ok = true;
    r.promisedBytesPerSecond = 64e9;
    summarizeCopy(r, {1e-4, 2e-4, 3e-4});
    sweep.results.push_back(r);
    const nlohmann::json j = copySweepJson(sweep, CopyRunOptions{});
    QCOMPARE(j.at("device").at("name").get<std::string>(), sweep.deviceName);
    const nlohmann::json& res = j.at("results").at(0);
    QCOMPARE(res.at("direction").get<std::string>(), std::string("d2h"));
    QCOMPARE(res.at("host_memory").get<std::string>(), std::string("pinned"));
    QCOMPARE(res.at("bytes").get<double>(), 1048576.0);
    QCOMPARE(res.at("seconds_median").get<double>(), 2e-4);
    QVERIFY(res.at("seconds_p20").get<double>() < 2e-4);
    QVERIFY(res.at("seconds_p80").get<double>() > 2e-4);
    QVERIFY(qFuzzyCompare(res.at("bytes_per_second").get<double>(), 1048576.0 / 2e-4));
    QCOMPARE(res.at("promised_bytes_per_second").get<double>(), 64e9);
}

void TestCopyBenchmark::failedCaseJsonHasNoTiming() {
    CopySweep sweep;
    sweep.deviceName = "Some GPU";
    CopyResult r;
    r.copy = {CopyDirection::hostToDevice, HostMemory::pageable, 4096};
    r.error = "out of memory";
    sweep.results.push_back(r);
    const nlohmann::json j = copySweepJson(sweep, CopyRunOptions{});
    QVERIFY(j.at("device").at("promised_bytes_per_second").is_null());
    QCOMPARE(j.at("device").at("promise_source").get<std::string>(), std::string("no promise"));
    const nlohmann::json& res = j.at("results").at(0);
    QCOMPARE(res.at("ok").get<bool>(), false);
    QCOMPARE(res.at("error").get<std::string>(), std::string("out of memory"));
    QVERIFY(res.at("promised_bytes_per_second").is_null());
    QVERIFY(!res.contains("seconds_median"));
}

void TestCopyBenchmark::allocJson() {
    AllocCheck c;
    c.deviceName = "GPU";
    c.expectedBytes = 8192;
    c.allocatorBytes = 8192;
    c.memGetInfoDeltaBytes = 2097152;
    c.freeBytesBefore = 10485760;
    c.freeBytesAfter = 8388608;
    const nlohmann::json j = allocCheckJson(c);
    QCOMPARE(j.at("expected_bytes").get<double>(), 8192.0);
    QCOMPARE(j.at("allocator_bytes").get<double>(), 8192.0);
    QCOMPARE(j.at("mem_get_info_delta_bytes").get<double>(), 2097152.0);
    QCOMPARE(j.at("mem_get_info_free_bytes_before").get<double>(), 10485760.0);
    QCOMPARE(j.at("mem_get_info_free_bytes_after").get<double>(), 8388608.0);
    QCOMPARE(j.at("allocator_bytes_before").get<double>(), 0.0);
    QCOMPARE(j.at("allocator_matches").get<bool>(), true);
}

void TestCopyBenchmark::cpuCannotCopy() {
    std::string why;
    QVERIFY(!runCopyBenchmark("cpu", copyCases({4096}), CopyRunOptions{}, &why));
    QVERIFY2(why.find("need a GPU") != std::string::npos, why.c_str());
    QVERIFY(!runAllocCheck("cpu", &why));
    QVERIFY(!runCopyBenchmark("tpu", {}, CopyRunOptions{}, &why));
    QVERIFY2(why.find("unknown backend") != std::string::npos, why.c_str());
}

QTEST_GUILESS_MAIN(TestCopyBenchmark)
#include "tst_copy_benchmark.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Memory bandwidth: how bytes are counted, how big the arrays are by default, the catalog's promise, a
// small real triad on this CPU, the CUDA path's answer without a GPU, the measured CPU roofline, and the
// JSON `napkin-cli bench memory` and `roofline` print.
#include "engine/benchmarks/cpu_roofline.h"
#include "engine/benchmarks/memory_bandwidth_run.h"
#include "engine/compute/memory_bandwidth.h"
#include "engine/report/memory_bandwidth_report.h"
#include "engine/report/roofline_report.h"

#include <QtTest>

#include <stdexcept>

using namespace napkin;

namespace {
constexpr qulonglong kMiB = 1ULL << 20;
}

class TestMemoryBandwidth : public QObject {
    Q_OBJECT
private slots:
    void bytesMovedPerRun_data();
    void bytesMovedPerRun();
    void defaultSize_data();
    void defaultSize();
    void parsesBytes_data();
    void parsesBytes();
    void refusesBadBytes_data();
    void refusesBadBytes();
    void summaryGivesBytesPerSecond();
    void deviceMemoryPromise();
    void smallTriadRunsOnThisCpu();
    void unknownDeviceSaysWhy();
    void cudaRunsOrSaysWhy();
    void reportHasTheContract();
    void gpuRooflineReport();
    void cpuRooflineIsMeasured();
    void cpuRooflineRefusesTf32();
};

// STREAM counts 2 reads + 1 write per triad element (24 bytes for fp64); a copy reads and writes each byte.
void TestMemoryBandwidth::bytesMovedPerRun_data() {
    QTest::addColumn<bool>("triad");
    QTest::addColumn<qulonglong>("bytesPerArray");
    QTest::addColumn<double>("moved");
    QTest::newRow("triad, one element") << true << qulonglong{8} << 24.0;
    QTest::newRow("triad, 1 MiB") << true << kMiB << 3.0 * 1048576;
    QTest::newRow("triad, 1040 MiB (this VM's default)") << true << 1040 * kMiB << 3271557120.0;
    QTest::newRow("copy, 1 MiB") << false << kMiB << 2097152.0;
    QTest::newRow("copy, 256 MiB") << false << 256 * kMiB << 536870912.0;
}

void TestMemoryBandwidth::bytesMovedPerRun() {
    QFETCH(bool, triad);
    QFETCH(qulonglong, bytesPerArray);
    QFETCH(double, moved);
    QCOMPARE(
        napkin::bytesMovedPerRun(triad ? BandwidthMethod::triad : BandwidthMethod::deviceCopy, bytesPerArray),
        moved);
}

// max(4 × last-level cache, 256 MiB), in whole fp64 elements.
void TestMemoryBandwidth::defaultSize_data() {
    QTest::addColumn<qulonglong>("cache"); // 0: unknown
    QTest::addColumn<qulonglong>("bytes");
    QTest::newRow("unknown cache") << qulonglong{0} << 256 * kMiB;
    QTest::newRow("32 MiB L3: 4 × 32 < 256") << 32 * kMiB << 256 * kMiB;
    QTest::newRow("64 MiB L3: 4 × 64 = 256") << 64 * kMiB << 256 * kMiB;
    QTest::newRow("this VM's 260 MiB L3") << 260 * kMiB << 1040 * kMiB;
    QTest::newRow("H100's 50 MiB L2") << 50 * kMiB << 256 * kMiB;
    QTest::newRow("odd size rounds down to 8 B") << qulonglong{100000001} << qulonglong{400000000};
}

void TestMemoryBandwidth::defaultSize() {
    QFETCH(qulonglong, cache);
    QFETCH(qulonglong, bytes);
    const std::optional<std::uint64_t> llc = cache ? std::optional<std::uint64_t>(cache) : std::nullopt;
    QCOMPARE(qulonglong{defaultBytesPerArray(llc)}, bytes);
    const QString rule = QString::fromStdString(defaultBytesPerArrayRule(llc));
    QVERIFY2(rule.contains(cache ? "max(4 ×" : "unknown"), qPrintable(rule));
}

void TestMemoryBandwidth::parsesBytes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qulonglong>("bytes");
    QTest::newRow("64M") << "64M" << 64 * kMiB;
    QTest::newRow("1G") << "1G" << 1024 * kMiB;
    QTest::newRow("plain") << "4096" << qulonglong{4096};
    QTest::newRow("one element") << "8" << qulonglong{8};
    QTest::newRow("16 GiB is the limit") << "16G" << 16 * 1024 * kMiB;
}

void TestMemoryBandwidth::parsesBytes() {
    QFETCH(QString, text);
    QFETCH(qulonglong, bytes);
    QCOMPARE(qulonglong{parseBytesPerArray(text.toStdString())}, bytes);
}

void TestMemoryBandwidth::refusesBadBytes_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << "0";
    QTest::newRow("below one element") << "4";
    QTest::newRow("above 16 GiB") << "17G";
    QTest::newRow("a list") << "1M,2M";
    QTest::newRow("words") << "lots";
    QTest::newRow("fraction") << "1.5M";
}

void TestMemoryBandwidth::refusesBadBytes() {
    QFETCH(QString, text);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseBytesPerArray(text.toStdString()));
}

void TestMemoryBandwidth::summaryGivesBytesPerSecond() {
    MemoryBandwidthResult r;
    r.bytesMovedPerRun = 3e9;
    summarizeBandwidth(r, {3.0, 1.0, 2.0});
    QCOMPARE(r.timing.medianSeconds, 2.0);
    QCOMPARE(r.bytesPerSecond, 1.5e9);
    summarizeBandwidth(r, {0.0});
    QCOMPARE(r.bytesPerSecond, 0.0);
}

// The H100 SXM datasheet's 3.35 TB/s; an unknown GPU has no promise.
void TestMemoryBandwidth::deviceMemoryPromise() {
    std::string source;
    const auto h100 = napkin::deviceMemoryPromise(GpuCatalog::builtIn(), "H100-SXM", &source);
    QVERIFY(h100);
    QCOMPARE(*h100, 3.35e12);
    QVERIFY(source.starts_with("datasheet: "));
    QVERIFY(!napkin::deviceMemoryPromise(GpuCatalog::builtIn(), "", &source));
    QVERIFY(!napkin::deviceMemoryPromise(GpuCatalog::builtIn(), "Z100", &source));
}

// 1 MiB + 4 bytes per array rounds down to 131072 fp64 elements: 3 × 8 × 131072 bytes per run, exactly.
void TestMemoryBandwidth::smallTriadRunsOnThisCpu() {
    MemoryBandwidthOptions o;
    o.bytesPerArray = kMiB + 4;
    o.repeats = 3;
    o.warmupRuns = 1;
    o.threads = 1;
    std::string why;
    const auto r = runMemoryBandwidth("cpu", o, &why);
    QVERIFY2(r, why.c_str());
    QCOMPARE(r->device, std::string("cpu"));
    QCOMPARE(r->method, std::string("triad a[i] = b[i] + s·c[i], fp64"));
    QCOMPARE(qulonglong{r->bytesPerArray}, kMiB);
    QCOMPARE(r->bytesMovedPerRun, 3.0 * 8 * 131072);
    QCOMPARE(r->threads, 1);
    QCOMPARE(r->timing.samples, 3);
    QCOMPARE(r->warmupRuns, 1);
    QVERIFY(r->verified);
    QVERIFY(r->bytesPerSecond > 0);
    QCOMPARE(r->bytesPerSecond, r->bytesMovedPerRun / r->timing.medianSeconds);
    QVERIFY(!r->promisedBytesPerSecond);
    QCOMPARE(r->promiseSource, std::string("none: no datasheet bandwidth for this CPU"));
    QVERIFY(r->byteConvention.find("STREAM") != std::string::npos);
}

void TestMemoryBandwidth::unknownDeviceSaysWhy() {
    std::string why;
    QVERIFY(!runMemoryBandwidth("tpu", {}, &why));
    QVERIFY2(why.find("unknown device 'tpu'") != std::string::npos, why.c_str());
}

// Without the CUDA backend or a device the answer is the reason; with one, a device-to-device copy.
void TestMemoryBandwidth::cudaRunsOrSaysWhy() {
    MemoryBandwidthOptions o;
    o.bytesPerArray = 8 * kMiB;
    o.repeats = 3;
    std::string why;
    const auto r = runMemoryBandwidth("cuda", o, &why);
    if (!r) {
        QVERIFY(!why.empty());
        return;
    }
    QCOMPARE(r->method, std::string("cudaMemcpy device-to-device"));
    QCOMPARE(r->bytesMovedPerRun, 2.0 * 8 * 1048576);
    QVERIFY(r->verified);
    QVERIFY(r->bytesPerSecond > 0);
}

void TestMemoryBandwidth::reportHasTheContract() {
    MemoryBandwidthResult r;
    r.device = "cpu";
    r.deviceName = "Test CPU";
    r.method = bandwidthMethodName(BandwidthMethod::triad);
    r.byteConvention = byteConvention(BandwidthMethod::triad);
    r.bytesPerArray = kMiB;
    r.bytesMovedPerRun = napkin::bytesMovedPerRun(BandwidthMethod::triad, kMiB);
    r.threads = 2;
    r.promiseSource = std::string(kNoCpuBandwidthPromise);
    summarizeBandwidth(r, {0.001, 0.002, 0.003});
    const nlohmann::json j = memoryBandwidthJson(r);
    for (const char* key : {"benchmark",
                            "device",
                            "device_name",
                            "catalog_id",
                            "method",
                            "byte_convention",
                            "bytes_per_array",
                            "size_rule",
                            "last_level_cache_bytes",
                            "bytes_moved_per_run",
                            "threads",
                            "warmup_runs",
                            "timer",
                            "seconds_median",
                            "seconds_p20",
                            "seconds_p80",
                            "seconds_min",
                            "samples",
                            "bytes_per_second",
                            "verified",
                            "promised_bytes_per_second",
                            "promise_source",
                            "fraction_of_promise",
                            "load_average_1min"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["benchmark"].get<std::string>(), std::string("memory"));
    QCOMPARE(j["bytes_moved_per_run"].get<long long>(), 3145728LL);
    QVERIFY(j["bytes_moved_per_run"].is_number_integer());
    QCOMPARE(j["bytes_per_second"].get<double>(), 3145728 / 0.002);
    QVERIFY(j["promised_bytes_per_second"].is_null());
    QVERIFY(j["fraction_of_promise"].is_null());
    QVERIFY(j["catalog_id"].is_null());
}

// The H100 SXM in bf16: 989.4e12 FLOP/s / 3.35e12 B/s = 295.34 FLOP/B (the acceptance figure).
void TestMemoryBandwidth::gpuRooflineReport() {
    const auto roof = gpuRoofline(*GpuCatalog::builtIn().find("H100-SXM"), ComputeType::bf16);
    QVERIFY(roof);
    const nlohmann::json j = rooflineJson(*roof);
    QCOMPARE(j["peak_flops_per_second"].get<double>(), 989.4e12);
    QCOMPARE(j["bandwidth_bytes_per_second"].get<double>(), 3.35e12);
    QCOMPARE(j["ridge_flops_per_byte"].get<double>(), 989.4e12 / 3.35e12);
    QCOMPARE(j["dtype"].get<std::string>(), std::string("bf16"));
    QVERIFY(j["formula"].get<std::string>().starts_with("ridge = peak / bandwidth = "));
    QVERIFY(j["peak_source"].get<std::string>().starts_with("datasheet: "));
    QVERIFY(!j.contains("bandwidth"));
}

// About a second: the FMA loop and a 2 MiB triad on one thread.
void TestMemoryBandwidth::cpuRooflineIsMeasured() {
    std::string why;
    MemoryBandwidthResult bw;
    const auto fp32 = measureCpuRoofline(BenchDtype::fp32, 1, &why, 2 * kMiB, &bw);
    QVERIFY2(fp32, why.c_str());
    QVERIFY(fp32->peakFlopsPerSecond > 0);
    QVERIFY(fp32->peakSource.starts_with("measured on this CPU: FMA loop"));
    QCOMPARE(fp32->bandwidthBytesPerSecond, bw.bytesPerSecond);
    QVERIFY(fp32->bandwidthSource.starts_with("measured on this CPU: triad"));
    QCOMPARE(qulonglong{bw.bytesPerArray}, 2 * kMiB);
    QCOMPARE(bw.threads, 1);
    QCOMPARE(fp32->ridgeFlopsPerByte(), fp32->peakFlopsPerSecond / bw.bytesPerSecond);
    const nlohmann::json j = rooflineJson(*fp32, &bw);
    QCOMPARE(j["bandwidth"]["bytes_per_array"].get<qulonglong>(), 2 * kMiB);
}

void TestMemoryBandwidth::cpuRooflineRefusesTf32() {
    std::string why;
    QVERIFY(!measureCpuRoofline("tf32", 1, &why, kMiB));
    QVERIFY2(why.find("tf32") != std::string::npos, why.c_str());
    QVERIFY(!measureCpuRoofline("int3", 1, &why, kMiB));
    QVERIFY2(why.find("unknown dtype 'int3'") != std::string::npos, why.c_str());
}

QTEST_APPLESS_MAIN(TestMemoryBandwidth)
#include "tst_memory_bandwidth.moc"

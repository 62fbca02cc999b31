// SPDX-License-Identifier: GPL-3.0-or-later
// A user-defined GPU: the dialog's fields checked one by one (each message names its field), and the
// catalog's JSON written back so that a part survives the trip to a file the CLI reads.
#include "engine/hardware/custom_gpu_form.h"
#include "engine/hardware/gpu_catalog_writer.h"

#include <QtTest>

using namespace napkin;

class TestCustomGpu : public QObject {
    Q_OBJECT
private slots:
    void validFormMakesAPart();
    void badFieldsAreNamed_data();
    void badFieldsAreNamed();
    void everyBuiltInPartRoundTrips();
    void customPartRoundTrips();
};

namespace {
// An H100 SXM typed from its datasheet (NVIDIA H100 datasheet: 80 GB, 3.35 TB/s, FP32 67 TFLOPS; the
// architecture whitepaper's dense TF32 494.7, BF16 989.4, FP8 1978.9; 700 W).
CustomGpuForm h100Typed() {
    CustomGpuForm form;
    form.name = "My H100";
    form.memoryGb = "80";
    form.bandwidthGbPerSecond = "3350";
    form.peaksTflops = {"67", "494.7", "989.4", "989.4", "1978.9"};
    form.tdpWatts = "700";
    return form;
}

void requireSame(const GpuSpec& a, const GpuSpec& b) {
    QCOMPARE(a.id, b.id);
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.source, b.source);
    QCOMPARE(a.memoryBytes, b.memoryBytes);
    QCOMPARE(a.memoryBandwidthBytesPerSecond, b.memoryBandwidthBytesPerSecond);
    QCOMPARE(a.densePeakFp32, b.densePeakFp32);
    QCOMPARE(a.densePeakTf32, b.densePeakTf32);
    QCOMPARE(a.densePeakFp16, b.densePeakFp16);
    QCOMPARE(a.densePeakBf16, b.densePeakBf16);
    QCOMPARE(a.densePeakFp8, b.densePeakFp8);
    QCOMPARE(a.peaksNotGiven, b.peaksNotGiven);
    QCOMPARE(a.densePeakFp64, b.densePeakFp64);
    QCOMPARE(a.densePeakInt8, b.densePeakInt8);
    QCOMPARE(a.densePeakFp4, b.densePeakFp4);
    QCOMPARE(a.tdpWatts, b.tdpWatts);
    QCOMPARE(a.tdpSource, b.tdpSource);
    QCOMPARE(a.driverMemoryBytes, b.driverMemoryBytes);
    QCOMPARE(a.unifiedMemoryBytes, b.unifiedMemoryBytes);
    QCOMPARE(a.memoryNote, b.memoryNote);
    QCOMPARE(a.kind, b.kind);
    QCOMPARE(a.vendor, b.vendor);
    QCOMPARE(a.architecture, b.architecture);
    QCOMPARE(a.computeCapability, b.computeCapability);
    QCOMPARE(a.hostLinkBytesPerSecondPerDirection, b.hostLinkBytesPerSecondPerDirection);
    QCOMPARE(a.gpuLinkBytesPerSecondPerDirection, b.gpuLinkBytesPerSecondPerDirection);
    QCOMPARE(a.gpuLinkGpus, b.gpuLinkGpus);
    QCOMPARE(a.gpuLinkName, b.gpuLinkName);
    QCOMPARE(a.networkBytesPerSecondPerDirection, b.networkBytesPerSecondPerDirection);
    QCOMPARE(a.interconnect, b.interconnect);
}
} // namespace

void TestCustomGpu::validFormMakesAPart() {
    const CustomGpuCheck check = checkCustomGpu(h100Typed());
    QVERIFY(check.errors.empty());
    QVERIFY(check.gpu);
    const GpuSpec& gpu = *check.gpu;
    QCOMPARE(gpu.id, std::string("My-H100"));
    QCOMPARE(gpu.memoryBytes, 80e9);
    QCOMPARE(gpu.memoryBandwidthBytesPerSecond, 3.35e12);
    QCOMPARE(gpu.densePeakBf16, 989.4e12);
    QCOMPARE(gpu.densePeakFp8, 1978.9e12);
    QCOMPARE(*gpu.tdpWatts, 700.0);
    QCOMPARE(gpu.peaksNotGiven, 0u);
    // Left empty: unknown; "none": no such path.
    CustomGpuForm t4ish = h100Typed();
    t4ish.peaksTflops = {"8.1", "none", "65", "none", ""};
    t4ish.tdpWatts = "";
    const CustomGpuCheck t4 = checkCustomGpu(t4ish);
    QVERIFY(t4.gpu);
    QVERIFY(densePeakGiven(*t4.gpu, ComputeType::bf16));
    QCOMPARE(t4.gpu->densePeakBf16, 0.0);
    QVERIFY(!densePeakGiven(*t4.gpu, ComputeType::fp8));
    QVERIFY(!t4.gpu->tdpWatts);
}

void TestCustomGpu::badFieldsAreNamed_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("empty name") << "name"
                                << " "
                                << "name";
    QTest::newRow("a built-in id") << "name"
                                   << "H100 SXM"
                                   << "built-in";
    QTest::newRow("memory as text") << "memory"
                                    << "lots"
                                    << "not a number";
    QTest::newRow("negative memory") << "memory"
                                     << "-80"
                                     << "positive";
    QTest::newRow("zero bandwidth") << "bandwidth"
                                    << "0"
                                    << "positive";
    QTest::newRow("bandwidth 1e30 GB/s") << "bandwidth"
                                         << "1e30"
                                         << "1e21";
    QTest::newRow("fp32 none") << "fp32"
                               << "none"
                               << "fp32 path";
    QTest::newRow("bf16 as text") << "bf16"
                                  << "fast"
                                  << "not a number";
    QTest::newRow("negative tdp") << "tdp"
                                  << "-5"
                                  << "positive";
}

void TestCustomGpu::badFieldsAreNamed() {
    QFETCH(QString, field);
    QFETCH(QString, typed);
    QFETCH(QString, mentions);
    CustomGpuForm form = h100Typed();
    const std::string text = typed.toStdString();
    if (field == "name")
        form.name = text;
    else if (field == "memory")
        form.memoryGb = text;
    else if (field == "bandwidth")
        form.bandwidthGbPerSecond = text;
    else if (field == "tdp")
        form.tdpWatts = text;
    else if (field == "fp32")
        form.peaksTflops[0] = text;
    else if (field == "bf16")
        form.peaksTflops[3] = text;
    const CustomGpuCheck check = checkCustomGpu(form);
    QVERIFY(!check.gpu);
    QCOMPARE(check.errors.size(), std::size_t(1)); // only the bad field is flagged
    QCOMPARE(QString::fromStdString(check.errors.front().field), field);
    QVERIFY2(QString::fromStdString(check.errorFor(field.toStdString())).contains(mentions),
             check.errors.front().message.c_str());
}

void TestCustomGpu::everyBuiltInPartRoundTrips() {
    const GpuCatalog& builtIn = GpuCatalog::builtIn();
    GpuCatalog readBack;
    const std::string error = readBack.addFromJson(gpuCatalogJson(builtIn.gpus()));
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(readBack.gpus().size(), builtIn.gpus().size());
    for (std::size_t i = 0; i < builtIn.gpus().size(); ++i)
        requireSame(readBack.gpus()[i], builtIn.gpus()[i]);
}

void TestCustomGpu::customPartRoundTrips() {
    CustomGpuForm form = h100Typed();
    form.peaksTflops = {"8.1", "none", "65", "none", ""};
    const GpuSpec typed = *checkCustomGpu(form).gpu;
    GpuCatalog readBack;
    QVERIFY(readBack.addFromJson(gpuCatalogJson({typed})).empty());
    requireSame(*readBack.find("My-H100"), typed);
    GpuCatalog session = GpuCatalog::builtIn(); // addGpu: the app's way in, through the same reader
    QCOMPARE(addGpu(session, typed), std::string());
    requireSame(*session.find("my-h100"), typed);
    QCOMPARE(session.gpus().size(), GpuCatalog::builtIn().gpus().size() + 1);
    QCOMPARE(addGpu(session, typed), std::string()); // again: replaced, not added twice
    QCOMPARE(session.gpus().size(), GpuCatalog::builtIn().gpus().size() + 1);
}

QTEST_APPLESS_MAIN(TestCustomGpu)
#include "tst_custom_gpu.moc"

// The GPU catalog: datasheet numbers, dense vs sparse, user-supplied GPUs.
#include "engine/hardware/gpu_catalog.h"

#include <QtTest>

using namespace napkin;

class TestGpuCatalog : public QObject {
    Q_OBJECT
private slots:
    void builtInPeaks_data();
    void builtInPeaks();
    void everyGpuCitesASource();
    void lookupIgnoresCase();
    void sparseIsTwiceDense();
    void interconnects_data();
    void interconnects();
    void driverMemory_data();
    void driverMemory();
    void customGpuIsAdded();
    void malformedCustomGpuIsRefused_data();
    void malformedCustomGpuIsRefused();
    void catalogFileIsBounded();
};

void TestGpuCatalog::builtInPeaks_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("compute");
    QTest::addColumn<double>("peak");
    QTest::addColumn<double>("memory");
    QTest::newRow("H100 SXM bf16 989.4 (lecture)")
        << "H100-SXM" << int(ComputeType::bf16) << 989.4e12 << 80e9;
    QTest::newRow("H100 SXM fp32 67") << "H100-SXM" << int(ComputeType::fp32) << 67e12 << 80e9;
    QTest::newRow("H100 SXM tf32 494.7") << "H100-SXM" << int(ComputeType::tf32) << 494.7e12 << 80e9;
    QTest::newRow("H100 SXM fp8 1978.9") << "H100-SXM" << int(ComputeType::fp8) << 1978.9e12 << 80e9;
    QTest::newRow("A100 SXM bf16 312") << "A100-SXM" << int(ComputeType::bf16) << 312e12 << 80e9;
    QTest::newRow("A100 has no fp8") << "A100-SXM" << int(ComputeType::fp8) << 0.0 << 80e9;
    QTest::newRow("H200 141 GB") << "H200" << int(ComputeType::bf16) << 989.4e12 << 141e9;
}

void TestGpuCatalog::builtInPeaks() {
    QFETCH(QString, id);
    QFETCH(int, compute);
    QFETCH(double, peak);
    QFETCH(double, memory);
    const GpuSpec* gpu = GpuCatalog::builtIn().find(id.toStdString());
    QVERIFY(gpu);
    QCOMPARE(densePeakFlopsPerSecond(*gpu, ComputeType(compute)), peak);
    QCOMPARE(gpu->memoryBytes, memory);
}

void TestGpuCatalog::everyGpuCitesASource() {
    const auto& gpus = GpuCatalog::builtIn().gpus();
    QVERIFY(gpus.size() >= 9);
    for (const GpuSpec& gpu : gpus) {
        QVERIFY2(gpu.source.size() > 20, gpu.id.c_str());
        QVERIFY2(gpu.memoryBandwidthBytesPerSecond > 0, gpu.id.c_str());
        QVERIFY2(gpu.densePeakBf16 >= gpu.densePeakTf32, gpu.id.c_str());
    }
}

void TestGpuCatalog::lookupIgnoresCase() {
    QVERIFY(GpuCatalog::builtIn().find("h100-sxm"));
    QVERIFY(!GpuCatalog::builtIn().find("H100"));
}

void TestGpuCatalog::sparseIsTwiceDense() {
    const GpuSpec& h100 = *GpuCatalog::builtIn().find("H100-SXM");
    QCOMPARE(sparsePeakFlopsPerSecond(h100, ComputeType::bf16), 1978.8e12);
}

void TestGpuCatalog::interconnects_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("gpuLink"); // per direction; 0: none in the catalog
    QTest::addColumn<double>("linkGpus");
    QTest::addColumn<double>("network"); // per GPU per direction; 0: none
    // H100 datasheet: NVLink 900 GB/s (bidirectional) over an 8-GPU HGX board; DGX H100: one 400 Gb/s
    // ConnectX-7 per GPU = 50 GB/s.
    QTest::newRow("H100 SXM: NVLink 450 GB/s × 8, 50 GB/s network") << "H100-SXM" << 450e9 << 8.0 << 50e9;
    // H100 PCIe: an NVLink bridge of 600 GB/s joins a pair; no reference system for the network.
    QTest::newRow("H100 PCIe: bridged pairs") << "H100-PCIe" << 300e9 << 2.0 << 0.0;
    // A100 datasheet: NVLink 600 GB/s; DGX A100: one 200 Gb/s HDR InfiniBand per GPU = 25 GB/s.
    QTest::newRow("A100 SXM: NVLink 300 GB/s × 8, 25 GB/s network") << "A100-SXM" << 300e9 << 8.0 << 25e9;
    // DGX B200: 14.4 TB/s aggregate NVLink over 8 GPUs = 1.8 TB/s per GPU.
    QTest::newRow("B200: NVLink 900 GB/s") << "B200" << 900e9 << 8.0 << 50e9;
    QTest::newRow("L40S: no NVLink") << "L40S" << 0.0 << 1.0 << 0.0;
}

void TestGpuCatalog::interconnects() {
    QFETCH(QString, id);
    QFETCH(double, gpuLink);
    QFETCH(double, linkGpus);
    QFETCH(double, network);
    const GpuSpec& gpu = *GpuCatalog::builtIn().find(id.toStdString());
    QCOMPARE(gpu.gpuLinkBytesPerSecondPerDirection.value_or(0), gpuLink);
    QCOMPARE(gpu.gpuLinkGpus, linkGpus);
    QCOMPARE(gpu.networkBytesPerSecondPerDirection.value_or(0), network);
    if (gpuLink > 0)
        QVERIFY2(gpu.gpuLinkSource.size() > 20 && !gpu.gpuLinkName.empty(), gpu.id.c_str());
    if (network > 0)
        QVERIFY2(gpu.networkSource.size() > 20, gpu.id.c_str());
}

void TestGpuCatalog::driverMemory_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("mebibytes"); // 0: the catalog has no source for it
    // Source: modal-labs/modal-client PR #2797, nvidia-smi's total memory across a cloud fleet.
    QTest::newRow("H100 SXM 81,559 MiB") << "H100-SXM" << 81559.0;
    QTest::newRow("A100 SXM 80GB 81,920 MiB") << "A100-SXM" << 81920.0;
    QTest::newRow("L40S 46,068 MiB") << "L40S" << 46068.0;
    QTest::newRow("H200: no source, absent") << "H200" << 0.0;
}

void TestGpuCatalog::driverMemory() {
    QFETCH(QString, id);
    QFETCH(double, mebibytes);
    const GpuSpec* gpu = GpuCatalog::builtIn().find(id.toStdString());
    QVERIFY(gpu);
    if (mebibytes == 0) {
        QVERIFY(!gpu->driverMemoryBytes);
        QVERIFY(gpu->driverMemorySource.empty());
        return;
    }
    QVERIFY(gpu->driverMemoryBytes);
    QCOMPARE(*gpu->driverMemoryBytes, mebibytes * 1024 * 1024);
    QVERIFY(*gpu->driverMemoryBytes > gpu->memoryBytes); // the datasheet's GB are smaller than the card
    QVERIFY(gpu->driverMemorySource.find("nvidia-smi") != std::string::npos);
}

void TestGpuCatalog::customGpuIsAdded() {
    GpuCatalog catalog = GpuCatalog::builtIn();
    const std::string error = catalog.addFromJson(R"({"gpus": [{"id": "MyCard", "memory_bytes": 16e9,
        "memory_bandwidth_bytes_per_second": 5e11, "dense_peak_flops_per_second": {"fp32": 1e13, "bf16": 5e13}}]})");
    QVERIFY2(error.empty(), error.c_str());
    const GpuSpec* gpu = catalog.find("mycard");
    QVERIFY(gpu);
    QCOMPARE(gpu->densePeakBf16, 5e13);
    QCOMPARE(gpu->densePeakFp8, 0.0);
    QVERIFY(!GpuCatalog::builtIn().find("MyCard")); // the built-in catalog is untouched
}

void TestGpuCatalog::malformedCustomGpuIsRefused_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("not JSON") << "{gpus"
                              << "JSON";
    QTest::newRow("no gpus array") << "{}"
                                   << "gpus";
    QTest::newRow("missing id") << R"({"gpus":[{"memory_bytes":1}]})"
                                << "id";
    QTest::newRow("negative memory")
        << R"({"gpus":[{"id":"x","memory_bytes":-1,"memory_bandwidth_bytes_per_second":1,"dense_peak_flops_per_second":{"fp32":1}}]})"
        << "memory_bytes";
    QTest::newRow("negative NVLink")
        << R"({"gpus":[{"id":"x","memory_bytes":1,"memory_bandwidth_bytes_per_second":1,"dense_peak_flops_per_second":{"fp32":1},"gpu_link_bytes_per_second_per_direction":-1}]})"
        << "gpu_link_bytes_per_second_per_direction";
    QTest::newRow("fractional link GPUs")
        << R"({"gpus":[{"id":"x","memory_bytes":1,"memory_bandwidth_bytes_per_second":1,"dense_peak_flops_per_second":{"fp32":1},"gpu_link_bytes_per_second_per_direction":1,"gpu_link_gpus":2.5}]})"
        << "gpu_link_gpus";
    // Figures whose answers would overflow to inf (a time at 1e-300 FLOP/s, memory × GPUs at 1e308 B).
    QTest::newRow("peak 1e-300")
        << R"({"gpus":[{"id":"x","memory_bytes":8e10,"memory_bandwidth_bytes_per_second":1e12,"dense_peak_flops_per_second":{"fp32":1e-300}}]})"
        << "fp32' must be from 1 to 1e21";
    QTest::newRow("memory 1e308")
        << R"({"gpus":[{"id":"x","memory_bytes":1e308,"memory_bandwidth_bytes_per_second":1e12,"dense_peak_flops_per_second":{"fp32":1e13}}]})"
        << "memory_bytes";
    QTest::newRow("bandwidth 1e-300")
        << R"({"gpus":[{"id":"x","memory_bytes":8e10,"memory_bandwidth_bytes_per_second":1e-300,"dense_peak_flops_per_second":{"fp32":1e13}}]})"
        << "memory_bandwidth_bytes_per_second' must be 0 or from 1 to 1e21";
    QTest::newRow("peak is text")
        << R"({"gpus":[{"id":"x","memory_bytes":1,"memory_bandwidth_bytes_per_second":1,"dense_peak_flops_per_second":{"fp32":"fast"}}]})"
        << "fp32";
}

void TestGpuCatalog::malformedCustomGpuIsRefused() {
    QFETCH(QString, json);
    QFETCH(QString, mentions);
    GpuCatalog catalog;
    const std::string error = catalog.addFromJson(json.toStdString());
    QVERIFY(QString::fromStdString(error).contains(mentions));
    QVERIFY(catalog.gpus().empty());
}

void TestGpuCatalog::catalogFileIsBounded() {
    GpuCatalog catalog;
    const std::string zero = catalog.addFromFile("/dev/zero"); // read until memory ran out, once
    QVERIFY2(zero == "/dev/zero is not a regular file", zero.c_str());
    QVERIFY(catalog.addFromFile("/nonexistent/catalog.json").find("cannot open") != std::string::npos);
    QVERIFY(catalog.gpus().empty());
}

QTEST_APPLESS_MAIN(TestGpuCatalog)
#include "tst_gpu_catalog.moc"

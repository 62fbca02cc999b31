// SPDX-License-Identifier: GPL-3.0-or-later
// The GPU catalog: datasheet numbers, dense vs sparse, user-supplied GPUs.
#include "engine/hardware/gpu_catalog.h"
#include "tests/support/gpu_figure.h"

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
    void partFigures_data();
    void partFigures();
    void noneDiffersFromNotGiven();
    void architectures_data();
    void architectures();
    void appleUnifiedMemory();
    void newFieldsParse();
    void deviceNamesMatchNewParts_data();
    void deviceNamesMatchNewParts();
};

using gpu_figure::absent;
using gpu_figure::figure;

void TestGpuCatalog::partFigures_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("field");
    QTest::addColumn<double>("expected"); // 0: the part has no such path; -1: no source gives it
    // T4: Tom's Hardware / geektopia on NVIDIA's launch: FP32 8.1 TFLOPS, mixed FP16/FP32 65 TFLOPS, INT8
    // 130 TOPS, 16 GB; Turing tensor cores do FP16/INT8/INT4 only (hpctech.co.jp); 70 W; 320 GB/s.
    QTest::newRow("T4 fp32 8.1") << "T4"
                                 << "fp32" << 8.1e12;
    QTest::newRow("T4 fp16 65") << "T4"
                                << "fp16" << 65e12;
    QTest::newRow("T4 int8 130 TOPS") << "T4"
                                      << "int8" << 130e12;
    QTest::newRow("T4 bf16: none") << "T4"
                                   << "bf16" << 0.0;
    QTest::newRow("T4 tf32: none") << "T4"
                                   << "tf32" << 0.0;
    QTest::newRow("T4 fp8: none") << "T4"
                                  << "fp8" << 0.0;
    QTest::newRow("T4 fp64: not given") << "T4"
                                        << "fp64" << absent;
    QTest::newRow("T4 16 GB") << "T4"
                              << "memory" << 16e9;
    QTest::newRow("T4 320 GB/s") << "T4"
                                 << "bandwidth" << 320e9;
    QTest::newRow("T4 70 W") << "T4"
                             << "tdp" << 70.0;
    QTest::newRow("T4 15,360 MiB reported") << "T4"
                                            << "driver" << 15360.0 * 1024 * 1024; // modal PR #2797
    // V100: NVIDIA developer blog, 125 Tensor TFLOPS; datasheet FP64 7.8, FP32 15.7; 900 GB/s; 300 W.
    QTest::newRow("V100 16GB tensor 125") << "V100-16GB"
                                          << "fp16" << 125e12;
    QTest::newRow("V100 16GB fp32 15.7") << "V100-16GB"
                                         << "fp32" << 15.7e12;
    QTest::newRow("V100 16GB fp64 7.8") << "V100-16GB"
                                        << "fp64" << 7.8e12;
    QTest::newRow("V100 16GB bf16: none") << "V100-16GB"
                                          << "bf16" << 0.0;
    QTest::newRow("V100 16GB 900 GB/s") << "V100-16GB"
                                        << "bandwidth" << 900e9;
    QTest::newRow("V100 32GB 32 GB") << "V100-32GB"
                                     << "memory" << 32e9;
    QTest::newRow("V100 32GB 300 W") << "V100-32GB"
                                     << "tdp" << 300.0;
    // A10: Baseten, 24 GB at 600 GB/s; sysrqmts FP32 31.24, 150 W; tensor peaks not sourced.
    QTest::newRow("A10 24 GB") << "A10"
                               << "memory" << 24e9;
    QTest::newRow("A10 600 GB/s") << "A10"
                                  << "bandwidth" << 600e9;
    QTest::newRow("A10 fp32 31.24") << "A10"
                                    << "fp32" << 31.24e12;
    QTest::newRow("A10 bf16: not given") << "A10"
                                         << "bf16" << absent;
    QTest::newRow("A10 150 W") << "A10"
                               << "tdp" << 150.0;
    QTest::newRow("A10 23,028 MiB reported") << "A10"
                                             << "driver" << 23028.0 * 1024 * 1024;
    QTest::newRow("A10G 300 W (nvidia-smi)") << "A10G"
                                             << "tdp" << 300.0;
    QTest::newRow("A10G fp32: not given") << "A10G"
                                          << "fp32" << absent;
    // L4 datasheet figures with sparsity, halved: TF32 120 → 60, BF16 242 → 121, FP8 485 → 242.
    QTest::newRow("L4 bf16 121") << "L4"
                                 << "bf16" << 121e12;
    QTest::newRow("L4 tf32 60") << "L4"
                                << "tf32" << 60e12;
    QTest::newRow("L4 fp8 242") << "L4"
                                << "fp8" << 242e12;
    QTest::newRow("L4 int8 242.5") << "L4"
                                   << "int8" << 242.5e12;
    QTest::newRow("L4 300 GB/s") << "L4"
                                 << "bandwidth" << 300e9;
    QTest::newRow("L4 72 W") << "L4"
                             << "tdp" << 72.0;
    QTest::newRow("L4 23,034 MiB reported") << "L4"
                                            << "driver" << 23034.0 * 1024 * 1024;
    // A100 40GB SXM4: datasheet (glennklockwood): FP64 matrix 19.5, INT8 624; 1,555 GB/s; 400 W.
    QTest::newRow("A100 40GB 1,555 GB/s") << "A100-SXM-40GB"
                                          << "bandwidth" << 1.555e12;
    QTest::newRow("A100 40GB bf16 312") << "A100-SXM-40GB"
                                        << "bf16" << 312e12;
    QTest::newRow("A100 40GB fp8: none") << "A100-SXM-40GB"
                                         << "fp8" << 0.0;
    QTest::newRow("A100 40GB 400 W") << "A100-SXM-40GB"
                                     << "tdp" << 400.0;
    QTest::newRow("A100 80GB fp64 19.5") << "A100-SXM"
                                         << "fp64" << 19.5e12;
    QTest::newRow("A100 80GB int8 624") << "A100-SXM"
                                        << "int8" << 624e12;
    QTest::newRow("A100 PCIe 80GB 300 W") << "A100-PCIe"
                                          << "tdp" << 300.0;
    QTest::newRow("H100 SXM 700 W") << "H100-SXM"
                                    << "tdp" << 700.0;
    QTest::newRow("H100 SXM fp64 66.9") << "H100-SXM"
                                        << "fp64" << 66.9e12;
    QTest::newRow("H100 SXM int8 1978.9") << "H100-SXM"
                                          << "int8" << 1978.9e12;
    QTest::newRow("H100 PCIe 350 W (product brief)") << "H100-PCIe"
                                                     << "tdp" << 350.0;
    QTest::newRow("H200 TDP: not given") << "H200"
                                         << "tdp" << absent;
    // RTX A6000 (ServeTheHome): 48 GB, 768 GB/s, 300 W, NVLink 112.5 GB/s bidirectional.
    QTest::newRow("RTX A6000 768 GB/s") << "RTX-A6000"
                                        << "bandwidth" << 768e9;
    QTest::newRow("RTX A6000 NVLink 56.25 GB/s a way") << "RTX-A6000"
                                                       << "link" << 56.25e9;
    QTest::newRow("RTX A6000 bf16: not given") << "RTX-A6000"
                                               << "bf16" << absent;
    // RTX 5090 (Linux Format review): 32 GB, 1,792 GB/s, 104 FP32, TBP 575 W.
    QTest::newRow("RTX 5090 1,792 GB/s") << "RTX-5090"
                                         << "bandwidth" << 1.792e12;
    QTest::newRow("RTX 5090 fp32 104") << "RTX-5090"
                                       << "fp32" << 104e12;
    QTest::newRow("RTX 5090 575 W") << "RTX-5090"
                                    << "tdp" << 575.0;
    // AMD: Vultr's ROCm cookbook (from AMD's pages) and MLCommons' MI300X system description.
    QTest::newRow("MI300X 192 GB") << "MI300X"
                                   << "memory" << 192e9;
    QTest::newRow("MI300X 5.3 TB/s") << "MI300X"
                                     << "bandwidth" << 5.3e12;
    QTest::newRow("MI300X 750 W") << "MI300X"
                                  << "tdp" << 750.0;
    QTest::newRow("MI300X bf16: not given") << "MI300X"
                                            << "bf16" << absent;
    QTest::newRow("MI325X 256 GB") << "MI325X"
                                   << "memory" << 256e9;
    QTest::newRow("MI325X 6.0 TB/s") << "MI325X"
                                     << "bandwidth" << 6.0e12;
    QTest::newRow("MI325X fp16 1,307") << "MI325X"
                                       << "fp16" << 1307e12;
    // Google Cloud TPU documentation, key chip specifications.
    QTest::newRow("TPU v5e bf16 197") << "TPU-v5e"
                                      << "bf16" << 197e12;
    QTest::newRow("TPU v5e int8 393") << "TPU-v5e"
                                      << "int8" << 393e12;
    QTest::newRow("TPU v5e 16 GB") << "TPU-v5e"
                                   << "memory" << 16e9;
    QTest::newRow("TPU v5e 819 GB/s") << "TPU-v5e"
                                      << "bandwidth" << 819e9;
    QTest::newRow("TPU v5e fp32: not given") << "TPU-v5e"
                                             << "fp32" << absent;
    QTest::newRow("TPU v5p bf16 459") << "TPU-v5p"
                                      << "bf16" << 459e12;
    QTest::newRow("TPU v5p 95 GB") << "TPU-v5p"
                                   << "memory" << 95e9;
    QTest::newRow("TPU v5p 2,765 GB/s") << "TPU-v5p"
                                        << "bandwidth" << 2765e9;
    QTest::newRow("TPU v6e bf16 918") << "TPU-v6e"
                                      << "bf16" << 918e12;
    QTest::newRow("TPU v6e int8 1836") << "TPU-v6e"
                                       << "int8" << 1836e12;
    QTest::newRow("TPU v6e 32 GB") << "TPU-v6e"
                                   << "memory" << 32e9;
    QTest::newRow("TPU v6e 1,638 GB/s") << "TPU-v6e"
                                        << "bandwidth" << 1638e9;
    // Apple M4 Max (MacRumors on Apple's announcement): up to 546 GB/s; no published FLOP/s.
    QTest::newRow("M4 Max 546 GB/s") << "M4-Max-128GB"
                                     << "bandwidth" << 546e9;
    QTest::newRow("M4 Max bf16: not given") << "M4-Max-128GB"
                                            << "bf16" << absent;
}

void TestGpuCatalog::partFigures() {
    QFETCH(QString, id);
    QFETCH(QString, field);
    QFETCH(double, expected);
    const GpuSpec* gpu = GpuCatalog::builtIn().find(id.toStdString());
    QVERIFY2(gpu, qPrintable(id));
    QCOMPARE(figure(*gpu, field), expected);
    if (field == "tdp" && expected > 0)
        QVERIFY(gpu->tdpSource.size() > 20);
}

void TestGpuCatalog::noneDiffersFromNotGiven() {
    const GpuSpec& t4 = *GpuCatalog::builtIn().find("T4");
    QVERIFY(densePeakGiven(t4, ComputeType::bf16)); // given: Turing has no bf16 path
    QCOMPARE(t4.densePeakBf16, 0.0);
    const GpuSpec& a10 = *GpuCatalog::builtIn().find("A10");
    QVERIFY(!densePeakGiven(a10, ComputeType::bf16)); // no source quoted: unknown, not "none"
    QVERIFY(densePeakGiven(a10, ComputeType::fp32));
    for (const GpuSpec& gpu : GpuCatalog::builtIn().gpus()) // every part of the first catalog gave all five
        if (gpu.id == "H100-SXM" || gpu.id == "RTX-4090" || gpu.id == "L40S")
            QCOMPARE(gpu.peaksNotGiven, 0u);
}

void TestGpuCatalog::architectures_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("architecture");
    QTest::addColumn<QString>("computeCapability"); // developer.nvidia.com/cuda-gpus
    QTest::newRow("T4 Turing 7.5") << "T4"
                                   << "Turing"
                                   << "7.5";
    QTest::newRow("V100 Volta 7.0") << "V100-32GB"
                                    << "Volta"
                                    << "7.0";
    QTest::newRow("A100 Ampere 8.0") << "A100-SXM"
                                     << "Ampere"
                                     << "8.0";
    QTest::newRow("A10 Ampere 8.6") << "A10"
                                    << "Ampere"
                                    << "8.6";
    QTest::newRow("L4 Ada 8.9") << "L4"
                                << "Ada Lovelace"
                                << "8.9";
    QTest::newRow("H100 Hopper 9.0") << "H100-SXM"
                                     << "Hopper"
                                     << "9.0";
    QTest::newRow("B200 Blackwell 10.0") << "B200"
                                         << "Blackwell"
                                         << "10.0";
    QTest::newRow("RTX 5090 Blackwell 12.0") << "RTX-5090"
                                             << "Blackwell"
                                             << "12.0";
    QTest::newRow("MI300X CDNA 3, no CUDA") << "MI300X"
                                            << "CDNA 3"
                                            << "";
    QTest::newRow("TPU v5e") << "TPU-v5e"
                             << "TPU v5e"
                             << "";
}

void TestGpuCatalog::architectures() {
    QFETCH(QString, id);
    QFETCH(QString, architecture);
    QFETCH(QString, computeCapability);
    const GpuSpec& gpu = *GpuCatalog::builtIn().find(id.toStdString());
    QCOMPARE(QString::fromStdString(gpu.architecture), architecture);
    QCOMPARE(QString::fromStdString(gpu.computeCapability), computeCapability);
    QVERIFY2(gpu.architectureSource.size() > 20, gpu.id.c_str());
    QVERIFY(!gpu.vendor.empty());
}

void TestGpuCatalog::appleUnifiedMemory() {
    const GpuSpec& mac = *GpuCatalog::builtIn().find("M4-Max-128GB");
    QCOMPARE(QString::fromStdString(mac.kind), QString("unified"));
    QVERIFY(mac.unifiedMemoryBytes);
    QCOMPARE(*mac.unifiedMemoryBytes, 128e9);
    // The GPU's share: Metal's recommendedMaxWorkingSetSize on 128 GiB Macs, 107.52 GiB (antirez/ds4 #893).
    QCOMPARE(mac.memoryBytes, 107.52 * 1024 * 1024 * 1024);
    QVERIFY(mac.memoryNote.find("iogpu.wired_limit_mb") != std::string::npos);
}

void TestGpuCatalog::newFieldsParse() {
    GpuCatalog catalog;
    const std::string error = catalog.addFromJson(R"({"gpus": [{"id": "Mine", "memory_bytes": 8e9,
        "memory_bandwidth_bytes_per_second": 1e11, "tdp_watts": 120, "kind": "gpu", "compute_capability": "7.5",
        "dense_peak_flops_per_second": {"fp16": 2e13, "bf16": "none", "fp64": 1e11}}]})");
    QVERIFY2(error.empty(), error.c_str());
    const GpuSpec& gpu = *catalog.find("Mine");
    QVERIFY(!densePeakGiven(gpu, ComputeType::fp32)); // fp32 may be left out: not given
    QVERIFY(densePeakGiven(gpu, ComputeType::bf16));
    QCOMPARE(gpu.densePeakBf16, 0.0);
    QCOMPARE(*gpu.tdpWatts, 120.0);
    QCOMPARE(gpu.tdpSource, std::string("user supplied"));
    QCOMPARE(*gpu.densePeakFp64, 1e11);
    QVERIFY(!gpu.densePeakInt8);
    QVERIFY(catalog
                .addFromJson(R"({"gpus":[{"id":"x","memory_bytes":1,"memory_bandwidth_bytes_per_second":1,
        "kind":"fpga","dense_peak_flops_per_second":{}}]})")
                .find("kind") != std::string::npos);
    QVERIFY(catalog
                .addFromJson(R"({"gpus":[{"id":"x","memory_bytes":1,"memory_bandwidth_bytes_per_second":1,
        "dense_peak_flops_per_second":{"bf16":"fast"}}]})")
                .find("bf16") != std::string::npos);
    QVERIFY(catalog
                .addFromJson(R"({"gpus":[{"id":"x","memory_bytes":1,"memory_bandwidth_bytes_per_second":1,
        "tdp_watts":-5,"dense_peak_flops_per_second":{}}]})")
                .find("tdp_watts") != std::string::npos);
}

void TestGpuCatalog::deviceNamesMatchNewParts_data() {
    QTest::addColumn<QString>("deviceName");
    QTest::addColumn<QString>("id");
    QTest::newRow("Colab T4") << "Tesla T4"
                              << "T4";
    QTest::newRow("V100 SXM2 16GB") << "Tesla V100-SXM2-16GB"
                                    << "V100-16GB";
    QTest::newRow("V100 SXM2 32GB") << "Tesla V100-SXM2-32GB"
                                    << "V100-32GB";
    QTest::newRow("A10G") << "NVIDIA A10G"
                          << "A10G";
    QTest::newRow("A10") << "NVIDIA A10"
                         << "A10";
    QTest::newRow("L4 is not L40S") << "NVIDIA L4"
                                    << "L4";
    QTest::newRow("L40S") << "NVIDIA L40S"
                          << "L40S";
    QTest::newRow("A100 40GB") << "NVIDIA A100-SXM4-40GB"
                               << "A100-SXM-40GB";
    QTest::newRow("A100 80GB") << "NVIDIA A100-SXM4-80GB"
                               << "A100-SXM";
    QTest::newRow("RTX A6000") << "NVIDIA RTX A6000"
                               << "RTX-A6000";
    QTest::newRow("RTX 5090") << "NVIDIA GeForce RTX 5090"
                              << "RTX-5090";
    QTest::newRow("RTX 3090") << "NVIDIA GeForce RTX 3090"
                              << "RTX-3090";
    QTest::newRow("RTX 3090 Ti is not the 3090") << "NVIDIA GeForce RTX 3090 Ti"
                                                 << "";
}

void TestGpuCatalog::deviceNamesMatchNewParts() {
    QFETCH(QString, deviceName);
    QFETCH(QString, id);
    QCOMPARE(QString::fromStdString(catalogIdForDeviceName(deviceName.toStdString())), id);
}

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

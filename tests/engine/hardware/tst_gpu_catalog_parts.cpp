// SPDX-License-Identifier: GPL-3.0-or-later
// The catalog's later parts (RTX 3090, MI250X, Apple M1/M2 Max, GH200): one row per figure against its cited
// source; a figure no source gives is absent (-1), and 0 means the part has no such path.
#include "engine/hardware/device_match.h"
#include "engine/hardware/gpu_catalog.h"
#include "tests/support/gpu_figure.h"

#include <QtTest>

using namespace napkin;
using gpu_figure::absent;

class TestGpuCatalogParts : public QObject {
    Q_OBJECT
private slots:
    void partFigures_data();
    void partFigures();
    void architectures_data();
    void architectures();
    void appleUsableShareIsBelowThePool();
    void thisMachinesGpu_data();
    void thisMachinesGpu();
};

void TestGpuCatalogParts::partFigures_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("field");
    QTest::addColumn<double>("expected");
    // RTX 3090, Tom's Hardware "Nvidia GeForce RTX 3090 Specifications" (2022-11-01): VRAM 24 GB, 936 GB/s,
    // FP32 35.6 TFLOPS, Total Board Power 350 W; its FP16 142 does not name the accumulator: left out.
    QTest::newRow("RTX 3090 24 GB") << "RTX-3090"
                                    << "memory" << 24e9;
    QTest::newRow("RTX 3090 936 GB/s") << "RTX-3090"
                                       << "bandwidth" << 936e9;
    QTest::newRow("RTX 3090 fp32 35.6") << "RTX-3090"
                                        << "fp32" << 35.6e12;
    QTest::newRow("RTX 3090 350 W") << "RTX-3090"
                                    << "tdp" << 350.0;
    QTest::newRow("RTX 3090 fp16: not given") << "RTX-3090"
                                              << "fp16" << absent;
    QTest::newRow("RTX 3090 bf16: not given") << "RTX-3090"
                                              << "bf16" << absent;
    QTest::newRow("RTX 3090 fp8: none (Ampere)") << "RTX-3090"
                                                 << "fp8" << 0.0;
    // MI250X, AMD's MI200 launch table as quoted by Zexron: FP64/FP32 matrix 95.7 TF, FP16/bf16 383.0 TF,
    // INT8 383.0 TOPS, 128 GB HBM2e, 3.2 TB/s; 560 W TDP (the article's title).
    QTest::newRow("MI250X 128 GB") << "MI250X"
                                   << "memory" << 128e9;
    QTest::newRow("MI250X 3.2 TB/s") << "MI250X"
                                     << "bandwidth" << 3.2e12;
    QTest::newRow("MI250X fp32 matrix 95.7") << "MI250X"
                                             << "fp32" << 95.7e12;
    QTest::newRow("MI250X fp64 matrix 95.7") << "MI250X"
                                             << "fp64" << 95.7e12;
    QTest::newRow("MI250X fp16 383") << "MI250X"
                                     << "fp16" << 383e12;
    QTest::newRow("MI250X bf16 383") << "MI250X"
                                     << "bf16" << 383e12;
    QTest::newRow("MI250X int8 383 TOPS") << "MI250X"
                                          << "int8" << 383e12;
    QTest::newRow("MI250X 560 W") << "MI250X"
                                  << "tdp" << 560.0;
    QTest::newRow("MI250X tf32: not given") << "MI250X"
                                            << "tf32" << absent;
    QTest::newRow("MI250X fp8: not given") << "MI250X"
                                           << "fp8" << absent;
    // M1 Max: Apple's announcement (mybroadband, 2021-10-18) up to 400GB/s; the 32 GB Mac's GPU share is
    // recommendedMaxWorkingSetSize = 21845.34 MB (llama.cpp PR #2011); no GPU FLOP/s published.
    QTest::newRow("M1 Max 400 GB/s") << "M1-Max-32GB"
                                     << "bandwidth" << 400e9;
    QTest::newRow("M1 Max 32 GB pool") << "M1-Max-32GB"
                                       << "unified" << 32e9;
    QTest::newRow("M1 Max GPU share 21,845.34 MiB") << "M1-Max-32GB"
                                                    << "memory" << 21845.34 * 1024 * 1024;
    QTest::newRow("M1 Max fp32: not given") << "M1-Max-32GB"
                                            << "fp32" << absent;
    // M1 Max 64 GB: recommendedMaxWorkingSetSize = 49152.00 MiB (llama.cpp issue #1870, an M1 Max with 64GB).
    QTest::newRow("M1 Max 64GB 64 GB pool") << "M1-Max-64GB"
                                            << "unified" << 64e9;
    QTest::newRow("M1 Max 64GB GPU share 49,152 MiB") << "M1-Max-64GB"
                                                      << "memory" << 49152.0 * 1024 * 1024;
    QTest::newRow("M1 Max 64GB 400 GB/s") << "M1-Max-64GB"
                                          << "bandwidth" << 400e9;
    // M2 Max: Apple's announcement (Trusted Reviews, 2023-01-17) 400GB/s, up to 96GB; GPU shares from
    // llama.cpp logs: 21845.34 MB on 32 GB (ollama #434), 73728.00 MB on 96 GB (llama.cpp #3213).
    QTest::newRow("M2 Max 32GB 400 GB/s") << "M2-Max-32GB"
                                          << "bandwidth" << 400e9;
    QTest::newRow("M2 Max 32GB GPU share 21,845.34 MiB") << "M2-Max-32GB"
                                                         << "memory" << 21845.34 * 1024 * 1024;
    QTest::newRow("M2 Max 96GB 96 GB pool") << "M2-Max-96GB"
                                            << "unified" << 96e9;
    QTest::newRow("M2 Max 96GB GPU share 73,728 MiB") << "M2-Max-96GB"
                                                      << "memory" << 73728.0 * 1024 * 1024;
    QTest::newRow("M2 Max 96GB 400 GB/s") << "M2-Max-96GB"
                                          << "bandwidth" << 400e9;
    QTest::newRow("M2 Max 96GB bf16: not given") << "M2-Max-96GB"
                                                 << "bf16" << absent;
    QTest::newRow("M2 Max 96GB TDP: not given") << "M2-Max-96GB"
                                                << "tdp" << absent;
    // GH200, NVIDIA's GH200 Grace Hopper Superchip datasheet (Product Specifications, as reproduced in
    // atineoSE/coding-model-seeks-gpu pipeline/pipeline/sources/gh200_specs.md): "989* | 494" and the like,
    // * with sparsity, the second figure dense; HBM 96GB HBM3 | 144GB HBM3e at up to 4TB/s | 4.9TB/s;
    // NVLink-C2C 900GB/s; Power (Memory + CPU + GPU) configurable 450 to 1000W.
    QTest::newRow("GH200 96GB: 96 GB HBM3") << "GH200-96GB"
                                            << "memory" << 96e9;
    QTest::newRow("GH200 96GB: 4 TB/s") << "GH200-96GB"
                                        << "bandwidth" << 4e12;
    QTest::newRow("GH200 144GB: 144 GB HBM3e") << "GH200-144GB"
                                               << "memory" << 144e9;
    QTest::newRow("GH200 144GB: 4.9 TB/s") << "GH200-144GB"
                                           << "bandwidth" << 4.9e12;
    QTest::newRow("GH200 fp32 67") << "GH200-144GB"
                                   << "fp32" << 67e12;
    QTest::newRow("GH200 tf32 494 dense (989 sparse)") << "GH200-96GB"
                                                       << "tf32" << 494e12;
    QTest::newRow("GH200 bf16 990 dense (1,979 sparse)") << "GH200-96GB"
                                                         << "bf16" << 990e12;
    QTest::newRow("GH200 fp16 990 dense (1,979 sparse)") << "GH200-144GB"
                                                         << "fp16" << 990e12;
    QTest::newRow("GH200 fp8 1,979 dense (3,958 sparse)") << "GH200-144GB"
                                                          << "fp8" << 1979e12;
    QTest::newRow("GH200 fp64 tensor 67") << "GH200-96GB"
                                          << "fp64" << 67e12;
    QTest::newRow("GH200 int8 1,979 TOPS dense") << "GH200-96GB"
                                                 << "int8" << 1979e12;
    QTest::newRow("GH200 module power 1000 W") << "GH200-144GB"
                                               << "tdp" << 1000.0;
    QTest::newRow("GH200 driver memory: not given") << "GH200-144GB"
                                                    << "driver" << absent;
}

void TestGpuCatalogParts::partFigures() {
    QFETCH(QString, id);
    QFETCH(QString, field);
    QFETCH(double, expected);
    const GpuSpec* gpu = GpuCatalog::builtIn().find(id.toStdString());
    QVERIFY2(gpu, qPrintable(id));
    QCOMPARE(gpu_figure::figure(*gpu, field), expected);
    QVERIFY2(gpu->source.size() > 40, gpu->id.c_str());
    if (field == "tdp" && expected > 0)
        QVERIFY(gpu->tdpSource.size() > 20);
}

void TestGpuCatalogParts::architectures_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("vendor");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("computeCapability"); // developer.nvidia.com/cuda-gpus; empty: not CUDA
    QTest::newRow("RTX 3090: Ampere 8.6") << "RTX-3090"
                                          << "NVIDIA"
                                          << "gpu"
                                          << "8.6";
    QTest::newRow("MI250X: CDNA 2, not CUDA") << "MI250X"
                                              << "AMD"
                                              << "gpu"
                                              << "";
    QTest::newRow("GH200: Hopper 9.0") << "GH200-144GB"
                                       << "NVIDIA"
                                       << "gpu"
                                       << "9.0";
    QTest::newRow("M2 Max: unified memory") << "M2-Max-96GB"
                                            << "Apple"
                                            << "unified"
                                            << "";
}

void TestGpuCatalogParts::architectures() {
    QFETCH(QString, id);
    QFETCH(QString, vendor);
    QFETCH(QString, kind);
    QFETCH(QString, computeCapability);
    const GpuSpec& gpu = *GpuCatalog::builtIn().find(id.toStdString());
    QCOMPARE(QString::fromStdString(gpu.vendor), vendor);
    QCOMPARE(QString::fromStdString(gpu.kind), kind);
    QCOMPARE(QString::fromStdString(gpu.computeCapability), computeCapability);
    QVERIFY2(gpu.architectureSource.size() > 20, gpu.id.c_str());
}

// The GPU's share of an Apple pool is the measured working set, smaller than the pool, and says how to
// raise it.
void TestGpuCatalogParts::appleUsableShareIsBelowThePool() {
    for (const GpuSpec& gpu : GpuCatalog::builtIn().gpus()) {
        if (gpu.kind != "unified")
            continue;
        QVERIFY2(gpu.unifiedMemoryBytes, gpu.id.c_str());
        QVERIFY2(gpu.memoryBytes < *gpu.unifiedMemoryBytes, gpu.id.c_str());
        QVERIFY2(gpu.memoryNote.find("iogpu.wired_limit_mb") != std::string::npos, gpu.id.c_str());
        QVERIFY2(gpu.memoryNote.find("recommendedMaxWorkingSetSize") != std::string::npos, gpu.id.c_str());
    }
}

// "This machine's GPU": a device's name (as nvidia-smi and cudaGetDeviceProperties give it) and its
// memory (totalGlobalMem) → the catalog part, or no part with the reason.
void TestGpuCatalogParts::thisMachinesGpu_data() {
    QTest::addColumn<QString>("deviceName");
    QTest::addColumn<double>("mebibytes"); // 0: the memory is not known
    QTest::addColumn<QString>("id");       // empty: no match
    // Names: skypilot-org/skypilot PR #2945 (RunPod's GPU names: "NVIDIA H100 80GB HBM3", "NVIDIA H100
    // PCIe", "NVIDIA GeForce RTX 4090"); akash-network/provider-configs PR #91 (nvidia-smi: "NVIDIA H100
    // NVL"); vllm-project/aibrix PR #2388 (node labels "Tesla-T4", "NVIDIA-A10", "A100-PCIE-40GB", spaces
    // as dashes). Memory: modal-labs/modal-client PR #2797, nvidia-smi's totals across a cloud fleet.
    QTest::newRow("H100 SXM, 81,559 MiB") << "NVIDIA H100 80GB HBM3" << 81559.0 << "H100-SXM";
    QTest::newRow("A100 SXM 80GB, 81,920 MiB") << "NVIDIA A100-SXM4-80GB" << 81920.0 << "A100-SXM";
    QTest::newRow("A100 SXM 40GB, 40,960 MiB") << "NVIDIA A100-SXM4-40GB" << 40960.0 << "A100-SXM-40GB";
    QTest::newRow("T4, 15,360 MiB") << "Tesla T4" << 15360.0 << "T4";
    QTest::newRow("A10, 23,028 MiB") << "NVIDIA A10" << 23028.0 << "A10";
    QTest::newRow("L4, 23,034 MiB") << "NVIDIA L4" << 23034.0 << "L4";
    QTest::newRow("L40S, 46,068 MiB") << "NVIDIA L40S" << 46068.0 << "L40S";
    QTest::newRow("H100 PCIe, memory unknown") << "NVIDIA H100 PCIe" << 0.0 << "H100-PCIe";
    QTest::newRow("H100 NVL, 94 GiB") << "NVIDIA H100 NVL" << 94.0 * 1024 << "H100-NVL";
    QTest::newRow("A10G, memory unknown") << "NVIDIA A10G" << 0.0 << "A10G";
    QTest::newRow("RTX 4090, 24 GiB") << "NVIDIA GeForce RTX 4090" << 24.0 * 1024 << "RTX-4090";
    // GH200 names: NVIDIA/open-gpu-kernel-modules README's supported GPUs ("NVIDIA GH200 480GB", "NVIDIA
    // GH200 120GB", "NVIDIA GH200 144G HBM3e"). The 480GB part (its Grace LPDDR5X) has 96 GB HBM3: OpenCL
    // reports 97280 MB there (mredenti/PowerCapping configuration/OpenCL_benchmark.md). "GH200" holds
    // "H200": these once matched the H200, and the 144 GB part's memory passed for an H200's 141 GB.
    QTest::newRow("GH200 480GB, 97,280 MiB") << "NVIDIA GH200 480GB" << 97280.0 << "GH200-96GB";
    QTest::newRow("GH200 144G HBM3e, memory unknown") << "NVIDIA GH200 144G HBM3e" << 0.0 << "GH200-144GB";
    QTest::newRow("GH200 120GB: the name does not say which HBM") << "NVIDIA GH200 120GB" << 0.0 << "";
    // The catalog's A100 PCIe is the 80 GB card: a 40 GB one is not it, whatever its name says.
    QTest::newRow("A100 PCIe 40GB: not the 80 GB part") << "NVIDIA A100-PCIE-40GB" << 40960.0 << "";
    // A MIG slice of an H100 reports its slice's memory, not the card's.
    QTest::newRow("H100 MIG 1g.10gb slice") << "NVIDIA H100 80GB HBM3" << 9984.0 << "";
    QTest::newRow("unknown part") << "NVIDIA GeForce GTX 1080" << 8192.0 << "";
}

void TestGpuCatalogParts::thisMachinesGpu() {
    QFETCH(QString, deviceName);
    QFETCH(double, mebibytes);
    QFETCH(QString, id);
    const DeviceMatch match =
        matchDevice(deviceName.toStdString(), mebibytes * 1024 * 1024, GpuCatalog::builtIn());
    QCOMPARE(QString::fromStdString(match.catalogId), id);
    QVERIFY(!match.reason.empty());
    if (id.isEmpty())
        QVERIFY2(match.reason.find(deviceName.toStdString()) != std::string::npos, match.reason.c_str());
}

QTEST_APPLESS_MAIN(TestGpuCatalogParts)
#include "tst_gpu_catalog_parts.moc"

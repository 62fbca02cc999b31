// SPDX-License-Identifier: GPL-3.0-or-later
// The hardware profile file: what it holds survives a round trip, a damaged or foreign file is refused in
// one line naming the field, and a GEMM's rate is its exact shape's in its orientation when measured, else
// interpolated between the measured shapes, never beyond.
#include "engine/steptime/hardware_profile.h"
#include "engine/steptime/published_profiles.h"
#include "engine/steptime/step_time.h"

#include <QtTest>

#include <cmath>
#include <string>

using namespace napkin;

namespace {

HardwareProfile sample() {
    HardwareProfile p;
    p.device = "H100-SXM";
    p.deviceName = "NVIDIA H100 80GB HBM3";
    p.source = "napkin-cli calibrate";
    p.gemms = {{ComputeType::bf16, 1024, 1024, 1024, 400e12},
               {ComputeType::bf16, 4096, 4096, 4096, 700e12},
               {ComputeType::fp32, 1024, 1024, 1024, 50e12}};
    p.memoryBandwidthBytesPerSecond = 3e12;
    p.bandwidthSource = "triad";
    p.elementwise = {{StorageType::bf16, 0.5e12}};
    p.perOpOverheadSeconds = 5e-6;
    p.overheadSource = "empty kernel";
    return p;
}

// fp32 as calibrate_torch.py measures a linear layer's GEMMs: a generic 1024³ timed the old way (`any`),
// and the three orientations of two of a step's shapes, the head's forward alone.
HardwareProfile oriented() {
    HardwareProfile p = sample();
    using O = GemmOrientation;
    p.gemms = {{ComputeType::fp32, 1024, 1024, 1024, 2.0e9, O::any},
               {ComputeType::fp32, 128, 768, 768, 1.8e9, O::forward},
               {ComputeType::fp32, 128, 768, 768, 2.6e9, O::inputGradient},
               {ComputeType::fp32, 128, 768, 768, 2.5e9, O::weightGradient},
               {ComputeType::fp32, 128, 50257, 768, 0.5e9, O::forward},
               {ComputeType::bf16, 1024, 1024, 1024, 40e9, O::forward}};
    return p;
}

const char* kValid = R"({"format": "napkin-hardware-profile", "version": 1, "device": "H100-SXM",
  "source": "calibrate", "gemm": [{"dtype": "bf16", "m": 8, "n": 8, "k": 8, "flops_per_second": 1e12}],
  "memory_bandwidth_bytes_per_second": 3e12, "per_op_overhead_seconds": 0})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at == std::string::npos)
        qFatal("test text lacks '%s'", from.c_str());
    return text.replace(at, from.size(), to);
}

} // namespace

class TestHardwareProfile : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        const HardwareProfile p = sample();
        const HardwareProfileRead read = hardwareProfileFromJson(hardwareProfileToJson(p));
        QVERIFY2(read.profile, read.error.c_str());
        QVERIFY(read.profile.value_or(HardwareProfile{}) == p);
    }

    void refusesNamingTheField_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        const std::string v = kValid;
        QTest::newRow("not JSON") << "{\"format\": "
                                  << "profile: not valid JSON";
        QTest::newRow("an array") << "[1, 2]"
                                  << "profile: must be a JSON object";
        QTest::newRow("foreign format")
            << QString::fromStdString(replaced(v, "napkin-hardware-profile", "gpu-catalog"))
            << "format: must be \"napkin-hardware-profile\"";
        QTest::newRow("future version")
            << QString::fromStdString(replaced(v, "\"version\": 1", "\"version\": 2"))
            << "version: must be 1";
        QTest::newRow("no device") << QString::fromStdString(replaced(v, "\"device\": \"H100-SXM\",", ""))
                                   << "device: missing";
        QTest::newRow("unknown dtype") << QString::fromStdString(replaced(v, "\"bf16\"", "\"int3\""))
                                       << "gemm[0].dtype: 'int3' is not fp32, tf32, fp16, bf16 or fp8";
        QTest::newRow("zero rate") << QString::fromStdString(replaced(v, "\"flops_per_second\": 1e12",
                                                                      "\"flops_per_second\": 0"))
                                   << "gemm[0].flops_per_second: must lie in [1, 1.00e21]";
        // What fuzz_hardware_profile found: 1e-300 FLOP/s timed a step at infinity.
        QTest::newRow("vanishing rate") << QString::fromStdString(replaced(v, "\"flops_per_second\": 1e12",
                                                                           "\"flops_per_second\": 1e-300"))
                                        << "gemm[0].flops_per_second: must lie in [1, 1.00e21]";
        QTest::newRow("negative overhead")
            << QString::fromStdString(
                   replaced(v, "\"per_op_overhead_seconds\": 0", "\"per_op_overhead_seconds\": -1"))
            << "per_op_overhead_seconds: must lie in [0, 1]";
        QTest::newRow("no draws") // napkin-cli calibrate's rate of the trainers' batch draw, when given
            << QString::fromStdString(
                   replaced(v, "\"per_op_overhead_seconds\": 0",
                            "\"per_op_overhead_seconds\": 0, \"normal_draws_per_second\": 0"))
            << "normal_draws_per_second: must lie in [1, 1.00e21]";
        QTest::newRow("threads 2.5") << QString::fromStdString(
                                            replaced(v, "\"per_op_overhead_seconds\": 0",
                                                     "\"per_op_overhead_seconds\": 0, \"threads\": 2.5"))
                                     << "threads: must be a whole number";
        QTest::newRow("rate as text") << QString::fromStdString(replaced(v, "\"m\": 8", "\"m\": \"8\""))
                                      << "gemm[0].m: must be a number";
        QTest::newRow("elementwise of no dtype")
            << QString::fromStdString(
                   replaced(v, "\"per_op_overhead_seconds\": 0",
                            "\"per_op_overhead_seconds\": 0, \"elementwise\": [{\"dtype\": \"none\", "
                            "\"bytes_per_second\": 1}]"))
            << "elementwise[0].dtype: 'none' is not fp32, fp16, bf16 or fp8";
        QTest::newRow("deep") << QString(200, '[') << "profile: nested deeper than a hardware profile is";
        QTest::newRow("unknown orientation")
            << QString::fromStdString(replaced(v, "\"m\": 8", "\"orientation\": \"sideways\", \"m\": 8"))
            << "gemm[0].orientation: 'sideways' is not any, forward, input_gradient or weight_gradient";
        QTest::newRow("update of an unknown optimizer")
            << QString::fromStdString(
                   replaced(v, "\"per_op_overhead_seconds\": 0",
                            "\"per_op_overhead_seconds\": 0, \"optimizer_update\": [{\"optimizer\": "
                            "\"lion\", \"implementation\": \"foreach\", \"dtype\": \"fp32\", "
                            "\"elements\": 1, \"bytes_per_second\": 1}]"))
            << "optimizer_update[0].optimizer: 'lion' is not an optimizer napkin models";
        QTest::newRow("update of no size")
            << QString::fromStdString(
                   replaced(v, "\"per_op_overhead_seconds\": 0",
                            "\"per_op_overhead_seconds\": 0, \"optimizer_update\": [{\"optimizer\": "
                            "\"adamw\", \"implementation\": \"foreach\", \"dtype\": \"fp32\", "
                            "\"elements\": 0, \"bytes_per_second\": 1}]"))
            << "optimizer_update[0].elements: must lie in [1, 1.00e15]";
        QTest::newRow("orientation as a number")
            << QString::fromStdString(replaced(v, "\"m\": 8", "\"orientation\": 1, \"m\": 8"))
            << "gemm[0].orientation: must be a string";
    }
    void refusesNamingTheField() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const HardwareProfileRead read = hardwareProfileFromJson(text.toStdString());
        QVERIFY(!read.profile);
        QCOMPARE(QString::fromStdString(read.error), error);
    }

    // A profile written before orientations were recorded opens as it did: its GEMMs are `any`.
    void oldProfileStillReads() {
        const HardwareProfileRead read = hardwareProfileFromJson(kValid);
        QVERIFY2(read.profile, read.error.c_str());
        QCOMPARE(read.profile->gemms.size(), std::size_t(1));
        QVERIFY(read.profile->gemms[0].orientation == GemmOrientation::any);
        QCOMPARE(
            gemmFlopsPerSecond(*read.profile, ComputeType::bf16, 8, 8, 8, GemmOrientation::weightGradient),
            std::optional<double>(1e12));
    }
    void orientationRoundTrips() {
        const HardwareProfile p = oriented();
        const std::string text = hardwareProfileToJson(p);
        QVERIFY(text.find("\"orientation\": \"input_gradient\"") != std::string::npos);
        const HardwareProfileRead read = hardwareProfileFromJson(text);
        QVERIFY2(read.profile, read.error.c_str());
        QVERIFY(read.profile.value_or(HardwareProfile{}) == p);
    }

    // An update timed whole: the one of this optimizer, implementation and dtype nearest in size; none: 0.
    void updateRate_data() {
        QTest::addColumn<int>("optimizer");
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<double>("elements");
        QTest::addColumn<double>("expected");
        const int adamw = int(OptimizerKind::adamw), single = int(OptimizerImplementation::singleTensor);
        QTest::newRow("small: the cache-sized one's")
            << adamw << single << int(StorageType::fp32) << 2e5 << 30e9;
        QTest::newRow("large: the DRAM-sized one's")
            << adamw << single << int(StorageType::fp32) << 4e7 << 12e9;
        QTest::newRow("another dtype: none") << adamw << single << int(StorageType::bf16) << 1e5 << 0.0;
        QTest::newRow("another implementation: none")
            << adamw << int(OptimizerImplementation::forEach) << int(StorageType::fp32) << 1e5 << 0.0;
        QTest::newRow("another optimizer: none")
            << int(OptimizerKind::sgd) << single << int(StorageType::fp32) << 1e5 << 0.0;
    }
    void updateRate() {
        QFETCH(int, optimizer);
        QFETCH(int, implementation);
        QFETCH(int, dtype);
        QFETCH(double, elements);
        QFETCH(double, expected);
        HardwareProfile p = sample();
        p.updates = {
            {OptimizerKind::adamw, OptimizerImplementation::singleTensor, StorageType::fp32, 1e5, 30e9},
            {OptimizerKind::adamw, OptimizerImplementation::singleTensor, StorageType::fp32, 5e7, 12e9}};
        QCOMPARE(updateBytesPerSecond(p, static_cast<OptimizerKind>(optimizer),
                                      static_cast<OptimizerImplementation>(implementation),
                                      static_cast<StorageType>(dtype), elements),
                 expected);
        const HardwareProfileRead read = hardwareProfileFromJson(hardwareProfileToJson(p));
        QVERIFY2(read.profile, read.error.c_str());
        QVERIFY(read.profile.value_or(HardwareProfile{}) == p);
    }

    // An exact shape in the asked orientation wins over any interpolation; another orientation's entry at
    // the same shape is not taken for it.
    void exactShapeAndOrientation_data() {
        QTest::addColumn<double>("m");
        QTest::addColumn<double>("n");
        QTest::addColumn<double>("k");
        QTest::addColumn<int>("orientation");
        QTest::addColumn<double>("expected");
        using O = GemmOrientation;
        QTest::newRow("exact, forward") << 128.0 << 768.0 << 768.0 << int(O::forward) << 1.8e9;
        QTest::newRow("exact, input gradient") << 128.0 << 768.0 << 768.0 << int(O::inputGradient) << 2.6e9;
        QTest::newRow("exact, weight gradient") << 128.0 << 768.0 << 768.0 << int(O::weightGradient) << 2.5e9;
        QTest::newRow("exact head, forward: not the interpolation's 2e9")
            << 128.0 << 50257.0 << 768.0 << int(O::forward) << 0.5e9;
        // The head's input gradient was not measured: its orientation's and the `any` rates, interpolated
        // (4.9e9 lies beyond 1024³ = 1.07e9, the largest: held at its 2e9), never the forward's 0.5e9.
        QTest::newRow("head, input gradient unmeasured: held at 1024³'s")
            << 128.0 << 50257.0 << 768.0 << int(O::inputGradient) << 2.0e9;
        // Between 128·768·768 (7.55e7, 2.5e9) and 1024³ (1.07e9, 2e9) in log volume: 256·768·768 lies at
        // ln 2 / ln(1024³ / 7.55e7) = 0.2611 of the way: 2.5e9 − 0.2611 × 0.5e9.
        QTest::newRow("weight gradient between measured shapes")
            << 256.0 << 768.0 << 768.0 << int(O::weightGradient)
            << 2.5e9 - std::log(2.0) / std::log(1073741824.0 / 75497472.0) * 0.5e9;
        QTest::newRow("a dtype measured in one orientation only: that one's")
            << 64.0 << 64.0 << 64.0 << int(O::weightGradient) << 40e9;
    }
    void exactShapeAndOrientation() {
        QFETCH(double, m);
        QFETCH(double, n);
        QFETCH(double, k);
        QFETCH(int, orientation);
        QFETCH(double, expected);
        const ComputeType dtype = expected == 40e9 ? ComputeType::bf16 : ComputeType::fp32;
        const std::optional<double> rate =
            gemmFlopsPerSecond(oriented(), dtype, m, n, k, static_cast<GemmOrientation>(orientation));
        QVERIFY(rate);
        QVERIFY2(std::abs(rate.value_or(0) / expected - 1) < 1e-12, std::to_string(rate.value_or(0)).c_str());
    }

    void refusesAFileThatIsNotRegular() {
        const HardwareProfileRead read = readHardwareProfile("/dev/zero");
        QVERIFY(!read.profile);
        QVERIFY2(read.error.find("/dev/zero") == 0, read.error.c_str());
    }

    // Measured 1024³ at 400 and 4096³ at 700 TFLOP/s: 2048³ lies halfway in log(m·n·k).
    void gemmRateInterpolates_data() {
        QTest::addColumn<double>("m");
        QTest::addColumn<double>("expected");
        QTest::newRow("below the smallest: held") << 64.0 << 400e12;
        QTest::newRow("the smallest") << 1024.0 << 400e12;
        QTest::newRow("halfway in log volume") << 2048.0 << 550e12;
        QTest::newRow("the largest") << 4096.0 << 700e12;
        QTest::newRow("beyond the largest: held") << 16384.0 << 700e12;
    }
    void gemmRateInterpolates() {
        QFETCH(double, m);
        QFETCH(double, expected);
        const std::optional<double> rate = gemmFlopsPerSecond(sample(), ComputeType::bf16, m, m, m);
        QVERIFY(rate);
        QVERIFY2(std::abs(rate.value_or(0) / expected - 1) < 1e-12, std::to_string(rate.value_or(0)).c_str());
    }
    // A dtype with an elementwise rate of its own streams at it; the others at the bandwidth.
    void elementwiseRatePerDtype() {
        QCOMPARE(memoryBytesPerSecond(sample(), StorageType::bf16), 0.5e12);
        QCOMPARE(memoryBytesPerSecond(sample(), StorageType::fp32), 3e12);
    }
    void noRateForAnUnmeasuredDtype() { QVERIFY(!gemmFlopsPerSecond(sample(), ComputeType::fp8, 8, 8, 8)); }

    // The published figures are the MAMF table's, each with its source; a part without one has none.
    void publishedFigures_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("bf16");
        QTest::newRow("A100 SXM") << "A100-SXM" << 267.9e12;
        QTest::newRow("H100 SXM") << "H100-SXM" << 792.1e12;
        QTest::newRow("MI300X") << "MI300X" << 781.9e12;
        QTest::newRow("T4: none published") << "T4" << 0.0;
    }
    void publishedFigures() {
        QFETCH(QString, gpu);
        QFETCH(double, bf16);
        const PublishedProfile published = publishedProfile(*GpuCatalog::builtIn().find(gpu.toStdString()));
        if (bf16 == 0) {
            QVERIFY(!published.profile);
            QVERIFY(published.whyNot.find("no published achievable") != std::string::npos);
            return;
        }
        QVERIFY(published.profile);
        const HardwareProfile profile = published.profile.value_or(HardwareProfile{});
        QCOMPARE(profile.gemms.size(), std::size_t{1});
        QCOMPARE(profile.gemms[0].flopsPerSecond, bf16);
        QVERIFY(profile.source.find("mamf-finder") != std::string::npos);
        QVERIFY(profileDeviceMismatch(profile, *GpuCatalog::builtIn().find(gpu.toStdString())).empty());
    }

    void anotherDevicesProfileIsNamed() {
        const std::string mismatch = profileDeviceMismatch(sample(), *GpuCatalog::builtIn().find("A100-SXM"));
        QCOMPARE(QString::fromStdString(mismatch),
                 QString("the profile was measured on H100-SXM, the account is for A100-SXM"));
    }
};

QTEST_APPLESS_MAIN(TestHardwareProfile)
#include "tst_hardware_profile.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Verification decides a matmul case's ok: a result beyond its dtype's error bound (matmul_error_bound.h,
// docs/cli.md) is ok: false with the reason, whatever its speed, and the JSON keeps the figures that
// condemned it. The problems here are deliberately corrupted GEMMs checked by the engine's own sampler.
#include "engine/benchmarks/matmul_error_bound.h"
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/compute/matmul_reference.h"
#include "engine/report/matmul_report.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

using namespace napkin;

namespace {

enum class Corruption { none, scaled, notANumber };

// C = A·B in float, then spoiled as asked; verified by the same sampler as the CPU problems.
class CorruptibleProblem final : public MatmulProblem {
public:
    CorruptibleProblem(const MatmulCase& shape, std::uint64_t seed, Corruption corruption)
        : m_(shape.m)
        , n_(shape.n)
        , k_(shape.k)
        , corruption_(corruption)
        , a_(static_cast<std::size_t>(m_ * k_))
        , b_(static_cast<std::size_t>(k_ * n_))
        , c_(static_cast<std::size_t>(m_ * n_)) {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<float> u(-1, 1);
        for (float& x : a_)
            x = u(rng);
        for (float& x : b_)
            x = u(rng);
    }
    bool run(const KeepGoing&) override {
        for (long i = 0; i < m_; ++i)
            for (long j = 0; j < n_; ++j) {
                float sum = 0;
                for (long p = 0; p < k_; ++p)
                    sum += a(i, p) * b(p, j);
                if (corruption_ == Corruption::scaled)
                    sum *= 1.01f; // 1 % off: far beyond fp32 rounding, small enough to look plausible
                else if (corruption_ == Corruption::notANumber)
                    sum = std::numeric_limits<float>::quiet_NaN();
                c_[static_cast<std::size_t>(i + j * m_)] = sum;
            }
        return true;
    }
    double maxRelativeError(int samples, std::uint64_t seed) const override {
        return sampledMaxRelativeError(
            m_, n_, k_, [&](long i, long p) { return double(a(i, p)); },
            [&](long p, long j) { return double(b(p, j)); },
            [&](long i, long j) { return double(c_[static_cast<std::size_t>(i + j * m_)]); }, samples, seed);
    }
    Snapshot snapshot() const override { return {}; }

private:
    float a(long i, long p) const { return a_[static_cast<std::size_t>(i + p * m_)]; }
    float b(long p, long j) const { return b_[static_cast<std::size_t>(p + j * k_)]; }
    long m_, n_, k_;
    Corruption corruption_;
    std::vector<float> a_, b_, c_;
};

class CorruptibleBackend final : public BenchmarkBackend {
public:
    explicit CorruptibleBackend(Corruption corruption)
        : corruption_(corruption) {}
    DeviceInfo deviceInfo() const override {
        DeviceInfo d;
        d.backend = "cuda"; // as a GPU would report it: the sweep must not trust a device either
        d.name = "corruptible";
        return d;
    }
    std::string unsupportedReason(BenchDtype) const override { return {}; }
    std::unique_ptr<MatmulProblem> prepareMatmul(const MatmulCase& shape, std::uint64_t seed) override {
        return std::make_unique<CorruptibleProblem>(shape, seed, corruption_);
    }
    std::unique_ptr<CruncherTrainer> makeCruncherTrainer(const CruncherConfig&) override { return nullptr; }

private:
    Corruption corruption_;
};

MatmulRunOptions quick() {
    MatmulRunOptions o;
    o.repeats = 2;
    o.maxWarmupRuns = 2;
    o.minSampleSeconds = 0;
    o.gpuSpinUpSeconds = 0; // the backend says "cuda": no clock to ramp here
    return o;
}

MatmulResult sweepOne(Corruption corruption) {
    CorruptibleBackend backend(corruption);
    const MatmulSweep sweep = runMatmulSweep(backend, {{48, 40, 64, BenchDtype::fp32}}, quick());
    if (sweep.results.size() != 1)
        qFatal("one case, one result");
    return sweep.results.front();
}

} // namespace

class TestMatmulVerification : public QObject {
    Q_OBJECT
private slots:
    void aCorrectGemmIsOk();
    void aScaledResultIsNotOk();
    void aNotANumberResultIsNotOk();
    void theJsonKeepsTheCondemningFigures();
    void boundsFollowTheDocumentedFormulas();
    void sixteenBitPartialSumsHaveNoBoundPastOne();
};

void TestMatmulVerification::aCorrectGemmIsOk() {
    const MatmulResult r = sweepOne(Corruption::none);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.error.empty());
    QVERIFY(r.maxRelErrorBound.has_value());
    QVERIFY(r.maxRelError <= *r.maxRelErrorBound);
    QVERIFY(QString::fromStdString(r.maxRelErrorBoundFormula).contains("k = 64"));
}

void TestMatmulVerification::aScaledResultIsNotOk() {
    const MatmulResult r = sweepOne(Corruption::scaled);
    QVERIFY(!r.ok);
    QVERIFY2(r.maxRelError > 1e-3, qPrintable(QString::number(r.maxRelError)));
    const QString error = QString::fromStdString(r.error);
    QVERIFY2(error.contains("exceeds the bound") && error.contains("γ_k(2^-24), k = 64"), qPrintable(error));
    QVERIFY(r.timing.samples == 2); // it was measured: only its result is refused
}

void TestMatmulVerification::aNotANumberResultIsNotOk() {
    const MatmulResult r = sweepOne(Corruption::notANumber);
    QVERIFY(!r.ok);
    QVERIFY(std::isnan(r.maxRelError)); // std::max(worst, NaN) kept 0: NaN passed as exact before
    QVERIFY2(QString::fromStdString(r.error).contains("not a number"), r.error.c_str());
}

void TestMatmulVerification::theJsonKeepsTheCondemningFigures() {
    MatmulSweep sweep;
    sweep.device.backend = "cuda";
    sweep.results.push_back(sweepOne(Corruption::scaled));
    const nlohmann::json j = matmulSweepJson(sweep).at("results").at(0);
    QCOMPARE(j.at("ok").get<bool>(), false);
    QVERIFY(QString::fromStdString(j.at("error").get<std::string>()).contains("verification failed"));
    QVERIFY(j.at("max_rel_error").get<double>() > j.at("max_rel_error_bound").get<double>());
    QVERIFY(j.at("seconds_median").is_number());
    QVERIFY(j.at("max_rel_error_bound_formula").is_string());
}

void TestMatmulVerification::boundsFollowTheDocumentedFormulas() {
    // fp32: γ_k(2^-24) = k·u / (1 − k·u), any library.
    const double u = 0x1p-24, k = 1024;
    QCOMPARE(*matmulErrorBound({64, 64, 1024, BenchDtype::fp32}, "onednn").value, k * u / (1 - k * u));
    QCOMPARE(*matmulErrorBound({64, 64, 1024, BenchDtype::fp32}, "cuda").value, k * u / (1 - k * u));
    // bf16 on oneDNN: 2^-8 + k·2^-24, to first order (tst_onednn_matmul's errorBound is 2^-8 + 1.01·k·2^-24).
    const double onednn = *matmulErrorBound({64, 64, 32, BenchDtype::bf16}, "onednn").value;
    QVERIFY(onednn > 0x1p-8 + 32 * u && onednn < 0x1p-8 + 1.01 * 32 * u);
    // The GPU's tensor cores sum with truncation: 2^-23.
    const double cuda = *matmulErrorBound({64, 64, 32, BenchDtype::bf16}, "cuda").value;
    QVERIFY(cuda > 0x1p-8 + 32 * 0x1p-23 && cuda < 0x1p-8 + 1.01 * 32 * 0x1p-23);
    // fp8: at most 128 terms at ~14 bits before fp32, then bf16 C: about 1.2e-2 whatever k.
    const double fp8 = *matmulErrorBound({8192, 8192, 8192, BenchDtype::fp8e4m3}, "cuda").value;
    QVERIFY2(fp8 > 0.0117 && fp8 < 0.0125, qPrintable(QString::number(fp8)));
    // tf32: both inputs cut to 10 bits (2·2^-10) and fp32 sums.
    const double tf32 = *matmulErrorBound({64, 64, 64, BenchDtype::tf32}, "cuda").value;
    QVERIFY(tf32 > 0x1p-9 && tf32 < 0x1p-9 + 1e-4);
}

void TestMatmulVerification::sixteenBitPartialSumsHaveNoBoundPastOne() {
    // Eigen rounds every partial sum to 16 bits: γ_k(2^-8) exists for k < 256 only.
    QVERIFY(matmulErrorBound({16, 16, 255, BenchDtype::bf16}, "eigen").value.has_value());
    const MatmulErrorBound none = matmulErrorBound({16, 16, 256, BenchDtype::bf16}, "eigen");
    QVERIFY(!none.value);
    QVERIFY(QString::fromStdString(none.formula).contains("must only be finite"));
    QVERIFY(matmulVerificationFailure(0.3, none).empty());
    QVERIFY(!matmulVerificationFailure(std::numeric_limits<double>::infinity(), none).empty());
}

QTEST_APPLESS_MAIN(TestMatmulVerification)
#include "tst_matmul_verification.moc"

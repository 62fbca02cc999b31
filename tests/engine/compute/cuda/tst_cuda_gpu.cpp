// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA backend on a real GPU (label "gpu"; every case skips where no device is present): GEMMs of
// every dtype against an independent reference, the fp8 algorithm cache, out-of-memory as a result,
// the Cruncher trainer against the CPU trainer (same data, same update rules) in every recipe, the batch
// drawn on the device against the host's draw, GradScaler's back-off, checkpoints, copies and the lecture's
// allocation check. Qt-free (tests/support/plain_test.h): the GPU machine has no Qt.
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/benchmarks/training_run.h"
#include "engine/compute/counter_normal.h"
#include "engine/compute/cpu/bf16_bits.h"
#include "engine/compute/cpu/cpu_cruncher_trainer.h"
#include "engine/compute/cuda/cuda_backend.h"
#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/cuda_copy_factory.h"
#include "engine/compute/cuda/cuda_cruncher_trainer.h"
#include "engine/compute/cuda/cuda_device_query.h"
#include "engine/compute/cuda/cuda_handles.h"
#include "engine/compute/cuda/cuda_kernels.h"
#include "tests/support/plain_test.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace napkin;

namespace {

void requireGpu() {
    if (const std::string why = cuda::noDeviceReason(); !why.empty())
        PLAIN_SKIP(why);
}

MatmulRunOptions quick() {
    MatmulRunOptions o;
    o.repeats = 3;
    o.maxWarmupRuns = 3;
    o.minSampleSeconds = 0;
    return o;
}

void deviceInfoIsFilled() {
    requireGpu();
    cuda::CudaBackend backend(0);
    const DeviceInfo d = backend.deviceInfo();
    PLAIN_CHECK(d.backend == "cuda");
    PLAIN_CHECK(!d.name.empty());
    PLAIN_CHECK(d.cores > 0);
    PLAIN_CHECK(d.clockHz && *d.clockHz > 1e8);
}

// `tolerance` on |c − ref| / Σ|a·b|: the output format's unit roundoff, roughly.
void gemmMatchesReference(BenchDtype dtype, double tolerance) {
    requireGpu();
    cuda::CudaBackend backend(0);
    if (const std::string why = backend.unsupportedReason(dtype); !why.empty())
        PLAIN_SKIP(why);
    const MatmulCase shape{48, 32, 64, dtype};
    auto problem = backend.prepareMatmul(shape, 7);
    PLAIN_CHECK(problem->run({}));
    const auto snap = problem->snapshot();
    double worst = 0;
    for (long i = 0; i < shape.m; ++i)
        for (long j = 0; j < shape.n; ++j) {
            long double ref = 0, scale = 0;
            for (long p = 0; p < shape.k; ++p) {
                const long double t =
                    static_cast<long double>(snap.a[static_cast<std::size_t>(i + p * shape.m)]) *
                    snap.b[static_cast<std::size_t>(p + j * shape.k)];
                ref += t;
                scale += std::fabs(t);
            }
            worst = std::max(worst,
                             static_cast<double>(
                                 std::fabs(snap.c[static_cast<std::size_t>(i + j * shape.m)] - ref) / scale));
        }
    PLAIN_CHECK_MSG(worst <= tolerance, "worst " + std::to_string(worst));
    const double sampled = problem->maxRelativeError(64, 3);
    PLAIN_CHECK(sampled <= worst * (1 + 1e-12)); // sampled entries are a subset of all entries
    const std::optional<double> seconds = problem->timedRun(2, {});
    PLAIN_CHECK(seconds && *seconds > 0 && *seconds < 1);
}

void fp8CachesItsAlgorithm() {
    requireGpu();
    cuda::CudaBackend backend(0);
    if (!backend.unsupportedReason(BenchDtype::fp8e4m3).empty())
        PLAIN_SKIP("no fp8 on this GPU");
    const MatmulSweep sweep = runMatmulSweep(backend,
                                             {{256, 256, 256, BenchDtype::fp8e4m3},
                                              {256, 256, 256, BenchDtype::fp8e4m3},
                                              {24, 16, 16, BenchDtype::fp8e4m3}},
                                             quick());
    PLAIN_CHECK(sweep.results.size() == 3);
    PLAIN_CHECK_MSG(sweep.results[0].ok && sweep.results[1].ok, sweep.results[0].error);
    PLAIN_CHECK(!sweep.results[2].ok);
    PLAIN_CHECK(sweep.results[2].error.find("multiples of 16") != std::string::npos);
}

void outOfMemoryIsAResult() {
    requireGpu();
    cuda::CudaBackend backend(0);
    // 3 × 2^20 × 2^20 fp32 ≈ 13 TB: no GPU holds it; the sweep records the message and goes on.
    const MatmulSweep sweep = runMatmulSweep(
        backend, {{1L << 20, 1L << 20, 1L << 20, BenchDtype::fp32}, {64, 64, 64, BenchDtype::fp32}}, quick());
    PLAIN_CHECK(sweep.results.size() == 2);
    PLAIN_CHECK(!sweep.results[0].ok);
    PLAIN_CHECK_MSG(sweep.results[0].error.find("out of GPU memory") != std::string::npos,
                    sweep.results[0].error);
    PLAIN_CHECK_MSG(sweep.results[1].ok, sweep.results[1].error);
}

void trainerMatchesCpu(OptimizerKind optimizer) {
    requireGpu();
    CruncherConfig config;
    config.dim = 32;
    config.layers = 3;
    config.batch = 16;
    config.optimizer = optimizer;
    config.hyper.learningRate = defaultLearningRate(optimizer, config.dim);
    cuda::CudaBackend backend(0);
    auto gpu = backend.makeCruncherTrainer(config);
    CpuCruncherTrainer cpu(config);
    for (int s = 0; s < 5; ++s) {
        const double lg = gpu->step(), lc = cpu.step();
        PLAIN_CHECK_MSG(std::fabs(lg - lc) <= 1e-4 * std::max(1.0, std::fabs(lc)),
                        std::to_string(lg) + " vs " + std::to_string(lc));
    }
    const std::vector<float> pg = gpu->parameters(), pc = cpu.parameters();
    PLAIN_CHECK(pg.size() == pc.size());
    for (std::size_t i = 0; i < pg.size(); ++i)
        PLAIN_CHECK(std::fabs(pg[i] - pc[i]) <= 1e-4f);
    // Each component at its peak: the CPU trainer frees activations and gradients within each step, the
    // CUDA trainer holds everything from the start. Their workspaces differ (the CUDA trainer keeps y,
    // dL/dy and two B·D buffers at once; the CPU trainer at most two B·D), so they are not compared.
    for (MemoryTag tag : {MemoryTag::parameters, MemoryTag::gradients, MemoryTag::optimizerState,
                          MemoryTag::activations, MemoryTag::inputs})
        PLAIN_CHECK_MSG(gpu->ledger().peakBytes(tag) == cpu.ledger().peakBytes(tag),
                        std::string(memoryTagName(tag)));
}

// The device's draw is the host's function (counter_normal.h) compiled for the GPU: the same floats, up to
// one float ulp where CUDA's double log or cos differs from glibc's in the last bit and the rounding to float
// falls on the other side.
void deviceNormalEqualsHost() {
    requireGpu();
    constexpr std::size_t n = 1 << 20;
    cuda::Stream stream;
    cuda::DeviceBuffer device(n * sizeof(float));
    cuda::fillNormal(device.as<float>(), n, 1, cruncherBatchStream(3), 0.5, stream.get());
    stream.synchronize(); // a non-blocking stream: cudaMemcpy on the default stream would not wait for it
    std::vector<float> fromDevice(n), fromHost(n);
    NAPKIN_CUDA_CHECK(cudaMemcpy(fromDevice.data(), device.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
    fillCounterNormal(fromHost.data(), n, 1, cruncherBatchStream(3), 0.5);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (fromDevice[i] == fromHost[i])
            continue;
        ++differ;
        PLAIN_CHECK_MSG(std::fabs(fromDevice[i] - fromHost[i]) <= 1.2e-7f * std::fabs(fromHost[i]),
                        "x[" + std::to_string(i) + "] " + std::to_string(fromDevice[i]) + " vs " +
                            std::to_string(fromHost[i]));
    }
    PLAIN_CHECK_MSG(differ < n / 1000, std::to_string(differ) + " of 2^20 differ in the last bit");
}

// A step's batch on the device, in fp32 and bf16, against the host's draw rounded the same way, and its
// targets t = x·w* (summed in double over x as stored) against the host's sum.
void deviceBatchEqualsHost(cuda::ElementType type) {
    requireGpu();
    const long B = 7, D = 300; // D above the block's 256 threads: each thread sums more than one column
    const std::size_t n = static_cast<std::size_t>(B * D), bytes = type == cuda::ElementType::f32 ? 4 : 2;
    cuda::Stream stream;
    cuda::DeviceBuffer x(n * bytes), truth(static_cast<std::size_t>(D) * 4), targets(static_cast<std::size_t>(B) * 4);
    std::vector<float> w(static_cast<std::size_t>(D));
    fillCounterNormal(w.data(), w.size(), 5, kCruncherTargetStream, 1.0 / std::sqrt(double(D)));
    NAPKIN_CUDA_CHECK(cudaMemcpy(truth.get(), w.data(), w.size() * 4, cudaMemcpyHostToDevice));
    cuda::drawCruncherBatch(x.get(), type, truth.as<float>(), targets.as<float>(), B, D, 5, 2, stream.get());
    stream.synchronize();
    std::vector<unsigned char> raw(n * bytes);
    std::vector<float> t(static_cast<std::size_t>(B));
    NAPKIN_CUDA_CHECK(cudaMemcpy(raw.data(), x.get(), raw.size(), cudaMemcpyDeviceToHost));
    NAPKIN_CUDA_CHECK(cudaMemcpy(t.data(), targets.get(), t.size() * 4, cudaMemcpyDeviceToHost));
    for (long r = 0; r < B; ++r) {
        double sum = 0;
        for (long c = 0; c < D; ++c) {
            const auto i = static_cast<std::size_t>(r * D + c);
            float host = static_cast<float>(counterNormal(5, 2, i)), device = 0;
            if (type == cuda::ElementType::f32) {
                std::memcpy(&device, raw.data() + i * 4, 4);
            } else {
                std::uint16_t bits = 0;
                std::memcpy(&bits, raw.data() + i * 2, 2);
                device = floatFromBf16(bits);
                host = floatFromBf16(bf16FromFloat(host));
            }
            PLAIN_CHECK(std::fabs(device - host) <= 1.2e-7f * std::fabs(host) + (type == cuda::ElementType::f32 ? 0.0f : 8e-3f * std::fabs(host)));
            sum += static_cast<double>(device) * w[static_cast<std::size_t>(c)];
        }
        PLAIN_CHECK_MSG(std::fabs(t[static_cast<std::size_t>(r)] - sum) <= 1e-6 * (1 + std::fabs(sum)),
                        std::to_string(t[static_cast<std::size_t>(r)]) + " vs " + std::to_string(sum));
    }
}

// Each recipe against the CPU's fp32 trainer on the same data: the loss within the recipe's rounding
// (tf32 and 16-bit GEMMs), and every component of memory the formula predicts equal to the ledger's bytes.
// mixed-fp16 skips the update of a step whose scaled gradients overflow (GradScaler), which the fp32
// trainer never does: its losses are compared up to the first skipped step (step 1 always).
void recipeTrainsLikeFp32(const std::string& recipe, double tolerance) {
    requireGpu();
    CruncherConfig config;
    config.dim = 64;
    config.layers = 3;
    config.batch = 32;
    config.optimizer = OptimizerKind::adam;
    config.hyper.learningRate = defaultLearningRate(config.optimizer, config.dim);
    PLAIN_CHECK(setTrainingRecipe(config, recipe));
    cuda::CudaBackend backend(0);
    if (const std::string why = backend.unsupportedRecipeReason(config); !why.empty())
        PLAIN_SKIP(why);
    auto gpu = backend.makeCruncherTrainer(config);
    CruncherConfig fp32 = config;
    fp32.precision = PrecisionRecipe::fp32;
    fp32.tf32Matmuls = false;
    CpuCruncherTrainer cpu(fp32);
    const auto* cudaTrainer = dynamic_cast<const cuda::CudaCruncherTrainer*>(gpu.get());
    PLAIN_CHECK(cudaTrainer != nullptr);
    for (int s = 0; s < 5; ++s) {
        const bool sameWeights = cudaTrainer->skippedSteps() == 0; // every update so far applied on both
        const double lg = gpu->step(), lc = cpu.step();
        if (sameWeights)
            PLAIN_CHECK_MSG(std::fabs(lg - lc) <= tolerance * std::max(1.0, std::fabs(lc)),
                            recipe + " step " + std::to_string(s + 1) + ": " + std::to_string(lg) + " vs " +
                                std::to_string(lc));
    }
    if (recipe != "mixed-fp16")
        PLAIN_CHECK(cudaTrainer->skippedSteps() == 0); // only the scaled recipe skips
    const AccountingResult p = predictedCruncherAccounting(config);
    const MemoryLedger& l = gpu->ledger();
    PLAIN_CHECK(l.peakBytes(MemoryTag::parameters) == p.memory.parameters.value);
    PLAIN_CHECK(l.peakBytes(MemoryTag::gradients) == p.memory.gradients.value);
    PLAIN_CHECK(l.peakBytes(MemoryTag::masterWeights) == p.memory.masterWeights.value);
    PLAIN_CHECK(l.peakBytes(MemoryTag::optimizerState) == p.memory.optimizerState.value);
    PLAIN_CHECK(l.peakBytes(MemoryTag::activations) == p.memory.activations.value);
}

// mixed-fp16's loss scale follows GradScaler: it starts at 65536 and halves on every step whose gradients
// overflowed (those steps change no weight); no growth within 2000 steps.
void lossScaleBacksOff() {
    requireGpu();
    CruncherConfig config;
    config.dim = 64;
    config.layers = 2;
    config.batch = 16;
    config.optimizer = OptimizerKind::sgd;
    config.precision = PrecisionRecipe::mixedFp16;
    cuda::CudaBackend backend(0);
    auto trainer = backend.makeCruncherTrainer(config);
    auto* cudaTrainer = dynamic_cast<cuda::CudaCruncherTrainer*>(trainer.get());
    PLAIN_CHECK(cudaTrainer != nullptr);
    PLAIN_CHECK(cudaTrainer->lossScale() == 65536.0);
    const std::vector<float> before = trainer->parameters();
    for (int s = 0; s < 30; ++s)
        trainer->step();
    const long skipped = cudaTrainer->skippedSteps();
    PLAIN_CHECK_MSG(cudaTrainer->lossScale() == 65536.0 * std::pow(0.5, double(skipped)),
                    std::to_string(cudaTrainer->lossScale()) + " after " + std::to_string(skipped) + " skipped");
    PLAIN_CHECK(skipped < 30); // the scale came down to where the gradients fit in fp16
    PLAIN_CHECK(trainer->parameters() != before);
}

void checkpointRoundTrip() {
    requireGpu();
    CruncherConfig config;
    config.dim = 16;
    config.optimizer = OptimizerKind::adam;
    cuda::CudaBackend backend(0);
    auto a = backend.makeCruncherTrainer(config);
    a->step();
    const std::string path = (std::filesystem::temp_directory_path() / "napkin_tst_cuda_gpu.ckpt").string();
    a->saveCheckpoint(path);
    auto b = backend.makeCruncherTrainer(config);
    b->loadCheckpoint(path);
    PLAIN_CHECK(b->stepsDone() == 1);
    PLAIN_CHECK(b->step() == a->step()); // same parameters, state and data stream
    CpuCruncherTrainer cpu(config);      // the CPU trainer reads the same format
    cpu.loadCheckpoint(path);
    PLAIN_CHECK(cpu.stepsDone() == 1);
    std::remove(path.c_str());
}

// Every size in both directions with both host memories comes back measured, with a positive rate that
// no copy can beat by much: twice the promise would mean the timer or the byte count is wrong.
void copySweepHasEveryCase() {
    requireGpu();
    const std::vector<std::uint64_t> sizes = {4096, 1 << 20, 16 << 20};
    CopyRunOptions options;
    options.repeats = 5;
    const CopySweep sweep = runCudaCopySweep(copyCases(sizes), options);
    PLAIN_CHECK(!sweep.deviceName.empty());
    PLAIN_CHECK(sweep.results.size() == sizes.size() * 4);
    for (const CopyResult& r : sweep.results) {
        PLAIN_CHECK_MSG(r.ok, r.error);
        PLAIN_CHECK(r.timing.samples == 5);
        PLAIN_CHECK(r.timing.p20Seconds <= r.timing.medianSeconds &&
                    r.timing.medianSeconds <= r.timing.p80Seconds);
        PLAIN_CHECK(r.bytesPerSecond > 0);
        if (sweep.promisedBytesPerSecond)
            PLAIN_CHECK(r.bytesPerSecond < 2 * *sweep.promisedBytesPerSecond);
    }
}

// The lecture's check: 2 * 32 * 32 * 4 bytes, exact in the accounting allocator; cudaMemGetInfo moves in
// the driver's granularity, so it may show 0 (a pooled page) or more, never less than nothing.
void allocCheckCountsTwoTensors() {
    requireGpu();
    const AllocCheck check = runCudaAllocCheck();
    PLAIN_CHECK(check.expectedBytes == 8192.0);
    PLAIN_CHECK(check.allocatorBytesBefore == 0.0);
    PLAIN_CHECK(check.allocatorBytes == 8192.0);
    PLAIN_CHECK(check.memGetInfoDeltaBytes == check.freeBytesBefore - check.freeBytesAfter);
    PLAIN_CHECK(check.memGetInfoDeltaBytes >= 0);
}

} // namespace

int main() {
    std::vector<std::pair<std::string, std::function<void()>>> cases{
        {"deviceInfoIsFilled", deviceInfoIsFilled}};
    const std::pair<BenchDtype, double> gemms[] = {
        {BenchDtype::fp32, 1e-6},   {BenchDtype::fp64, 1e-14},
        {BenchDtype::tf32, 4e-3}, // inputs cut to 10 mantissa bits: ≤ 2·2^-10 per product
        {BenchDtype::fp16, 2e-3},   {BenchDtype::bf16, 1e-2},
        {BenchDtype::fp8e4m3, 1e-2}}; // exact products, bf16 output
    for (const auto& [dtype, tolerance] : gemms)
        cases.emplace_back(
            "gemmMatchesReference(" + std::string(benchDtypeName(dtype)) + ")",
            [dtype = dtype, tolerance = tolerance] { gemmMatchesReference(dtype, tolerance); });
    cases.emplace_back("fp8CachesItsAlgorithm", fp8CachesItsAlgorithm);
    cases.emplace_back("outOfMemoryIsAResult", outOfMemoryIsAResult);
    for (OptimizerKind k : allOptimizers())
        cases.emplace_back("trainerMatchesCpu(" + std::string(optimizerName(k)) + ")",
                           [k] { trainerMatchesCpu(k); });
    cases.emplace_back("deviceNormalEqualsHost", deviceNormalEqualsHost);
    cases.emplace_back("deviceBatchEqualsHost(f32)", [] { deviceBatchEqualsHost(cuda::ElementType::f32); });
    cases.emplace_back("deviceBatchEqualsHost(bf16)", [] { deviceBatchEqualsHost(cuda::ElementType::bf16); });
    // Tolerances on the loss: tf32 cuts GEMM inputs to 10 mantissa bits (≈ 2^-11 each), bf16 to 8 (2^-9),
    // fp16 to 11 (2^-12) with its activations also 16-bit; five Adam steps compound them.
    const std::pair<const char*, double> recipes[] = {
        {"tf32", 1e-2}, {"mixed-bf16", 5e-2}, {"mixed-fp16", 2e-2}};
    for (const auto& [recipe, tolerance] : recipes)
        cases.emplace_back("recipeTrainsLikeFp32(" + std::string(recipe) + ")",
                           [recipe = recipe, tolerance = tolerance] { recipeTrainsLikeFp32(recipe, tolerance); });
    cases.emplace_back("lossScaleBacksOff", lossScaleBacksOff);
    cases.emplace_back("checkpointRoundTrip", checkpointRoundTrip);
    cases.emplace_back("copySweepHasEveryCase", copySweepHasEveryCase);
    cases.emplace_back("allocCheckCountsTwoTensors", allocCheckCountsTwoTensors);
    return plain_test::run(cases);
}

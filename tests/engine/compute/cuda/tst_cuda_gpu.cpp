// The CUDA backend on a real GPU (label "gpu"; every case skips where no device is present): GEMMs of
// every dtype against an independent reference, the fp8 algorithm cache, out-of-memory as a result,
// the Cruncher trainer against the CPU trainer (same data, same update rules), checkpoints, copies and
// the lecture's allocation check. Qt-free (tests/support/plain_test.h): the GPU machine has no Qt.
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/compute/cpu/cpu_cruncher_trainer.h"
#include "engine/compute/cuda/cuda_backend.h"
#include "engine/compute/cuda/cuda_copy_factory.h"
#include "engine/compute/cuda/cuda_cruncher_trainer.h"
#include "engine/compute/cuda/cuda_device_query.h"
#include "tests/support/plain_test.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

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
    cases.emplace_back("checkpointRoundTrip", checkpointRoundTrip);
    cases.emplace_back("copySweepHasEveryCase", copySweepHasEveryCase);
    cases.emplace_back("allocCheckCountsTwoTensors", allocCheckCountsTwoTensors);
    return plain_test::run(cases);
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/stream_triad.h"

#include "engine/hardware/cpu_cache.h"
#include "engine/hardware/cpu_facts.h"

#include <omp.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

namespace napkin {
namespace {

using Clock = std::chrono::steady_clock;

// Exact in binary, so b + s·c is exactly 3.5 with or without a fused multiply-add: the check below can
// ask for equality.
constexpr double kB = 2.0, kC = 0.5, kScalar = 3.0, kExpected = kB + kScalar * kC;

// The arrays, allocated without initialisation (not std::vector) so that the first write, by the thread
// that later streams that part, decides where each page lives. Aligned to a 64-byte cache line, as
// PyTorch's CPU allocator aligns: a plain new double[] of this size is 16 bytes past a page boundary, so
// every full-width AVX-512 store would straddle two cache lines.
constexpr std::align_val_t kCacheLine{64};
struct AlignedDelete {
    void operator()(double* p) const { ::operator delete[](p, kCacheLine); }
};
using AlignedArray = std::unique_ptr<double[], AlignedDelete>;
AlignedArray allocateAligned(std::size_t elements) {
    return AlignedArray(static_cast<double*>(::operator new[](elements * sizeof(double), kCacheLine)));
}

struct TriadArrays {
    std::size_t n;
    AlignedArray a, b, c;
    explicit TriadArrays(std::size_t elements)
        : n(elements)
        , a(allocateAligned(elements))
        , b(allocateAligned(elements))
        , c(allocateAligned(elements)) {}
};

// The same static schedule as the triad, so each thread first touches exactly the elements it streams.
void firstTouch(TriadArrays& t, int threads) {
    double* a = t.a.get();
    double* b = t.b.get();
    double* c = t.c.get();
    const auto n = static_cast<std::ptrdiff_t>(t.n);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
        a[i] = 0.0;
        b[i] = kB;
        c[i] = kC;
    }
}

double timeOneTriad(TriadArrays& t, int threads) {
    double* a = t.a.get();
    const double* b = t.b.get();
    const double* c = t.c.get();
    const auto n = static_cast<std::ptrdiff_t>(t.n);
    const auto start = Clock::now();
#pragma omp parallel for simd schedule(static) num_threads(threads)
    for (std::ptrdiff_t i = 0; i < n; ++i)
        a[i] = b[i] + kScalar * c[i];
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Every element, in parallel: a wrong a[] would mean the timed loop did not do what is counted.
bool triadIsCorrect(const TriadArrays& t, int threads) {
    const double* a = t.a.get();
    const auto n = static_cast<std::ptrdiff_t>(t.n);
    std::ptrdiff_t wrong = 0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : wrong)
    for (std::ptrdiff_t i = 0; i < n; ++i)
        wrong += a[i] != kExpected ? 1 : 0;
    return wrong == 0;
}

} // namespace

MemoryBandwidthResult runCpuTriad(const MemoryBandwidthOptions& options) {
    if (options.repeats < 1)
        throw std::invalid_argument("the triad needs at least one timed run");
    const CpuFacts facts = readCpuFacts();
    MemoryBandwidthResult r;
    r.device = "cpu";
    r.deviceName = facts.modelName;
    r.method = bandwidthMethodName(BandwidthMethod::triad);
    r.byteConvention = byteConvention(BandwidthMethod::triad);
    r.lastLevelCacheBytes = readLastLevelCacheBytes();
    if (options.bytesPerArray > 0) {
        r.bytesPerArray = wholeFp64Bytes(options.bytesPerArray);
        r.sizeRule = "--bytes (rounded down to whole fp64 elements)";
    } else {
        r.bytesPerArray = defaultBytesPerArray(r.lastLevelCacheBytes);
        r.sizeRule = defaultBytesPerArrayRule(r.lastLevelCacheBytes);
    }
    if (r.bytesPerArray < sizeof(double))
        throw std::invalid_argument("each triad array needs at least one fp64 element (8 bytes)");
    r.bytesMovedPerRun = bytesMovedPerRun(BandwidthMethod::triad, r.bytesPerArray);
    r.threads = options.threads > 0 ? options.threads : facts.physicalCores;
    r.warmupRuns = options.warmupRuns;
    r.timer = "std::chrono::steady_clock around one OpenMP parallel-for over the arrays (static schedule)";
    r.promiseSource = std::string(kNoCpuBandwidthPromise);

    TriadArrays arrays(r.bytesPerArray / sizeof(double));
    firstTouch(arrays, r.threads);
    for (int i = 0; i < options.warmupRuns; ++i)
        timeOneTriad(arrays, r.threads);
    std::vector<double> seconds;
    seconds.reserve(static_cast<std::size_t>(options.repeats));
    for (int i = 0; i < options.repeats; ++i)
        seconds.push_back(timeOneTriad(arrays, r.threads));
    r.verified = triadIsCorrect(arrays, r.threads);
    summarizeBandwidth(r, std::move(seconds));
    return r;
}

} // namespace napkin

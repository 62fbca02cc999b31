// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/fma_peak.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace napkin {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kChains = 12; // > FMA latency (4) × FMA units (2): enough independent work to fill both pipes

// Each kernel runs `iterations` × kChains FMAs on full vectors and returns a value that depends on
// all of them, so the compiler cannot drop the work. x·a + b with a ≈ 1 keeps values finite. The
// chain loop must be unrolled so the accumulators live in registers (without the pragma GCC -O2 kept
// them in memory and the loop measured store-forwarding, not the FMA units: GEMM then beat the "peak").
__attribute__((target("avx512f"))) float kernelAvx512(long iterations) {
    __m512 acc[kChains];
    for (int c = 0; c < kChains; ++c)
        acc[c] = _mm512_set1_ps(0.001f * static_cast<float>(c));
    const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    for (long i = 0; i < iterations; ++i)
#pragma GCC unroll 16
        for (int c = 0; c < kChains; ++c)
            acc[c] = _mm512_fmadd_ps(acc[c], a, b);
    __m512 sum = acc[0];
    for (int c = 1; c < kChains; ++c)
        sum = _mm512_add_ps(sum, acc[c]);
    return _mm512_reduce_add_ps(sum);
}

__attribute__((target("avx2,fma"))) float kernelAvx2(long iterations) {
    __m256 acc[kChains];
    for (int c = 0; c < kChains; ++c)
        acc[c] = _mm256_set1_ps(0.001f * static_cast<float>(c));
    const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    for (long i = 0; i < iterations; ++i)
#pragma GCC unroll 16
        for (int c = 0; c < kChains; ++c)
            acc[c] = _mm256_fmadd_ps(acc[c], a, b);
    __m256 sum = acc[0];
    for (int c = 1; c < kChains; ++c)
        sum = _mm256_add_ps(sum, acc[c]);
    float lanes[8];
    _mm256_storeu_ps(lanes, sum);
    float total = 0;
    for (float v : lanes)
        total += v;
    return total;
}

float kernelSse2(long iterations) { // a multiply and an add count as one FMA's two FLOPs
    __m128 acc[kChains];
    for (int c = 0; c < kChains; ++c)
        acc[c] = _mm_set1_ps(0.001f * static_cast<float>(c));
    const __m128 a = _mm_set1_ps(0.999999f), b = _mm_set1_ps(1e-7f);
    for (long i = 0; i < iterations; ++i)
#pragma GCC unroll 16
        for (int c = 0; c < kChains; ++c)
            acc[c] = _mm_add_ps(_mm_mul_ps(acc[c], a), b);
    __m128 sum = acc[0];
    for (int c = 1; c < kChains; ++c)
        sum = _mm_add_ps(sum, acc[c]);
    float lanes[4];
    _mm_storeu_ps(lanes, sum);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

} // namespace

FmaPeak measureFp32FmaPeak(int threads, double secondsPerTrial, int trials) {
    FmaPeak peak;
    peak.threads = std::max(1, threads);
    float (*kernel)(long) = kernelSse2;
    peak.lanes = 4;
    peak.isa = "sse2 (mul+add)";
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        kernel = kernelAvx512;
        peak.lanes = 16;
        peak.isa = "avx512f";
    } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        kernel = kernelAvx2;
        peak.lanes = 8;
        peak.isa = "avx2+fma";
    }
    // Calibrate on one thread: the iterations of one sample, from the fastest of a few short runs (one
    // run held off the core would make the samples too short, not wrong).
    long iterations = 1000;
    std::atomic<float> sink{0};
    const auto timed = [&](long n) {
        const auto start = Clock::now();
        sink = sink + kernel(n);
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    while (timed(iterations) < kFmaPeakSampleSeconds / 4 && iterations < (1L << 40))
        iterations *= 4;
    double fastest = 1e30;
    for (int i = 0; i < 5; ++i)
        fastest = std::min(fastest, timed(iterations));
    iterations =
        std::max(1L, static_cast<long>(static_cast<double>(iterations) * kFmaPeakSampleSeconds / fastest));
    const double budget = std::max(0.0, secondsPerTrial) * std::max(1, trials);
    peak.samples = std::clamp(static_cast<int>(budget / kFmaPeakSampleSeconds), std::max(1, trials), 1000);
    for (int sample = 0; sample < peak.samples; ++sample) {
        std::vector<std::thread> pool;
        pool.reserve(static_cast<std::size_t>(peak.threads));
        std::atomic<int> ready{0};
        std::atomic<bool> go{false};
        for (int t = 0; t < peak.threads; ++t)
            pool.emplace_back([&] {
                ++ready;
                while (!go.load())
                    std::this_thread::yield();
                sink = sink + kernel(iterations);
            });
        while (ready.load() < peak.threads)
            std::this_thread::yield();
        const auto start = Clock::now();
        go = true;
        for (std::thread& t : pool)
            t.join();
        const double s = std::chrono::duration<double>(Clock::now() - start).count();
        const double flops = 2.0 * peak.lanes * kChains * static_cast<double>(iterations) * peak.threads;
        peak.flopsPerSecond = std::max(peak.flopsPerSecond, flops / s);
    }
    if (sink.load() < -1e30f) // never true; keeps `sink` observable
        peak.flopsPerSecond = 0;
    return peak;
}

} // namespace napkin

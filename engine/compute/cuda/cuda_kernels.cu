// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_kernels.h"

#include "engine/compute/counter_normal.h"
#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/optimizer_update.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <stdexcept>
#include <type_traits>

namespace napkin::cuda {
namespace {

constexpr int kThreads = 256;

__device__ double uniformAt(std::uint64_t seed, std::size_t i) {
    // splitmix64 of (seed, i): a counter-based generator, so every element is independent of launch shape.
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(i) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

template <typename T> __device__ T fromDouble(double v) {
    return static_cast<T>(v);
}
template <> __device__ __half fromDouble<__half>(double v) {
    return __double2half(v);
}
template <> __device__ __nv_bfloat16 fromDouble<__nv_bfloat16>(double v) {
    return __double2bfloat16(v);
}
template <> __device__ __nv_fp8_e4m3 fromDouble<__nv_fp8_e4m3>(double v) {
    return __nv_fp8_e4m3(v);
}

template <typename T> __global__ void fillKernel(T* dst, std::size_t count, std::uint64_t seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        dst[i] = fromDouble<T>(uniformAt(seed, i));
}

unsigned blocksFor(std::size_t n) {
    const std::size_t blocks = (n + kThreads - 1) / kThreads;
    return static_cast<unsigned>(blocks < 65535 * 16 ? (blocks > 0 ? blocks : 1) : 65535 * 16);
}

template <typename T> void launchFill(void* dst, std::size_t count, std::uint64_t seed, cudaStream_t stream) {
    fillKernel<T><<<blocksFor(count), kThreads, 0, stream>>>(static_cast<T*>(dst), count, seed);
    NAPKIN_CUDA_CHECK(cudaGetLastError());
}

// The working types of the trainer's GEMMs, as float and back (to nearest even).
template <typename T> __device__ float toFloat(T v) {
    return static_cast<float>(v);
}
template <> __device__ float toFloat<__half>(__half v) {
    return __half2float(v);
}
template <> __device__ float toFloat<__nv_bfloat16>(__nv_bfloat16 v) {
    return __bfloat162float(v);
}
template <typename T> __device__ T fromFloat(float v) {
    return v;
}
template <> __device__ __half fromFloat<__half>(float v) {
    return __float2half_rn(v);
}
template <> __device__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float v) {
    return __float2bfloat16_rn(v);
}

// Calls f with a null pointer of the C++ type `type` names (f32, bf16, f16: the trainer's working types).
template <typename F> void withWorkingType(ElementType type, F f) {
    switch (type) {
    case ElementType::f32:
        return f(static_cast<float*>(nullptr));
    case ElementType::bf16:
        return f(static_cast<__nv_bfloat16*>(nullptr));
    case ElementType::f16:
        return f(static_cast<__half*>(nullptr));
    case ElementType::f64:
    case ElementType::e4m3:
        break;
    }
    throw std::invalid_argument("the Cruncher trainer works in f32, bf16 or f16");
}

__global__ void normalKernel(float* dst, std::size_t count, std::uint64_t seed, std::uint64_t stream,
                             double scale) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        dst[i] = static_cast<float>(counterNormal(seed, stream, i) * scale);
}

// Block r draws row r and reduces its x·w* in double through shared memory (kThreads a power of two).
template <typename T>
__global__ void batchKernel(T* x, const float* truth, float* targets, long dim, std::uint64_t seed,
                            std::uint64_t stream) {
    __shared__ double partial[kThreads];
    const long row = blockIdx.x;
    double sum = 0;
    for (long c = threadIdx.x; c < dim; c += blockDim.x) {
        const auto i = static_cast<std::uint64_t>(row * dim + c);
        const T stored = fromFloat<T>(static_cast<float>(counterNormal(seed, stream, i)));
        x[i] = stored;
        sum += static_cast<double>(toFloat(stored)) * truth[c];
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        targets[row] = static_cast<float>(partial[0]);
}

template <typename T>
__global__ void mseKernel(const T* y, const float* t, T* dy, double* lossSum, long batch,
                          const LossScalerState* scaler) {
    const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
    const double scale = scaler ? scaler->scale : 1.0;
    double r2 = 0;
    if (i < batch) {
        const double r = static_cast<double>(toFloat(y[i])) - t[i];
        dy[i] = fromFloat<T>(static_cast<float>(scale * 2.0 * r / static_cast<double>(batch)));
        r2 = r * r;
    }
    for (int offset = 16; offset > 0; offset /= 2) // warp sum, then one atomic per warp
        r2 += __shfl_down_sync(0xffffffffu, r2, offset);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(lossSum, r2);
}

template <typename T> __global__ void nonFiniteKernel(const T* g, std::size_t n, LossScalerState* scaler) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        if (!isfinite(toFloat(g[i])))
            scaler->foundInf = 1; // a benign race: every writer writes 1
}

__global__ void lossScaleKernel(LossScalerState* s, LossScalerRule rule) {
    if (s->foundInf) {
        s->scale *= rule.backoffFactor;
        s->growthTracker = 0;
    } else if (++s->growthTracker == rule.growthInterval) {
        const float grown = s->scale * rule.growthFactor;
        if (isfinite(grown)) // as torch's _amp_update_scale_: never grow into inf
            s->scale = grown;
        s->growthTracker = 0;
    }
}

template <typename T> __global__ void roundKernel(const float* src, T* dst, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        dst[i] = fromFloat<T>(src[i]);
}

template <typename T>
__global__ void mixedOptimizerKernel(OptimizerArgs a, float* p, const T* g, float* s1, float* s2, T* w,
                                     std::size_t n, const LossScalerState* scaler) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n || (scaler && scaler->foundInf))
        return;
    float gradient = toFloat(g[i]);
    if (scaler) // GradScaler's unscale_: the reciprocal in double, rounded to float, times the gradient
        gradient *= static_cast<float>(1.0 / static_cast<double>(scaler->scale));
    float unused1 = 0, unused2 = 0;
    updateElement(a, p[i], gradient, s1 ? s1[i] : unused1, s2 ? s2[i] : unused2);
    w[i] = fromFloat<T>(p[i]);
}

__global__ void optimizerKernel(OptimizerArgs a, float* p, const float* g, float* s1, float* s2,
                                std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n)
        return;
    float unused1 = 0, unused2 = 0; // SGD keeps no state, momentum/AdaGrad/RMSProp one
    updateElement(a, p[i], g[i], s1 ? s1[i] : unused1, s2 ? s2[i] : unused2);
}

} // namespace

void fillUniform(void* dst, std::size_t count, ElementType type, std::uint64_t seed, cudaStream_t stream) {
    if (count == 0)
        return;
    switch (type) {
    case ElementType::f32:
        return launchFill<float>(dst, count, seed, stream);
    case ElementType::f64:
        return launchFill<double>(dst, count, seed, stream);
    case ElementType::f16:
        return launchFill<__half>(dst, count, seed, stream);
    case ElementType::bf16:
        return launchFill<__nv_bfloat16>(dst, count, seed, stream);
    case ElementType::e4m3:
        return launchFill<__nv_fp8_e4m3>(dst, count, seed, stream);
    }
}

void fillNormal(float* dst, std::size_t count, std::uint64_t seed, std::uint64_t stream, double scale,
                cudaStream_t cudaStream) {
    if (count == 0)
        return;
    normalKernel<<<blocksFor(count), kThreads, 0, cudaStream>>>(dst, count, seed, stream, scale);
    NAPKIN_CUDA_CHECK(cudaGetLastError());
}

void drawCruncherBatch(void* x, ElementType type, const float* truth, float* targets, long batch, long dim,
                       std::uint64_t seed, std::uint64_t stream, cudaStream_t cudaStream) {
    withWorkingType(type, [&](auto* typed) {
        using T = std::remove_pointer_t<decltype(typed)>;
        batchKernel<T><<<static_cast<unsigned>(batch), kThreads, 0, cudaStream>>>(static_cast<T*>(x), truth,
                                                                                  targets, dim, seed, stream);
    });
    NAPKIN_CUDA_CHECK(cudaGetLastError());
}

void mseLossAndGradient(const void* y, ElementType type, const float* t, void* dy, double* lossSum, long batch,
                        const LossScalerState* scaler, cudaStream_t stream) {
    const auto blocks = static_cast<unsigned>((batch + kThreads - 1) / kThreads);
    withWorkingType(type, [&](auto* typed) {
        using T = std::remove_pointer_t<decltype(typed)>;
        mseKernel<T><<<blocks, kThreads, 0, stream>>>(static_cast<const T*>(y), t, static_cast<T*>(dy), lossSum,
                                                      batch, scaler);
    });
    NAPKIN_CUDA_CHECK(cudaGetLastError());
}

void findNonFinite(const void* g, ElementType type, std::size_t n, LossScalerState* scaler, cudaStream_t stream) {
    if (n == 0)
        return;
    withWorkingType(type, [&](auto* typed) {
        using T = std::remove_pointer_t<decltype(typed)>;
        nonFiniteKernel<T><<<blocksFor(n), kThreads, 0, stream>>>(static_cast<const T*>(g), n, scaler);
    });
    NAPKIN_CUDA_CHECK(cudaGetLastError());
}

void updateLossScale(LossScalerState* scaler, LossScalerRule rule, cudaStream_t stream) {
    lossScaleKernel<<<1, 1, 0, stream>>>(scaler, rule);
    NAPKIN_CUDA_CHECK(cudaGetLastError());
}

void roundFromFloat(const float* src, void* dst, ElementType type, std::size_t n, cudaStream_t stream) {
    if (n == 0)
        return;
    withWorkingType(type, [&](auto* typed) {
        using T = std::remove_pointer_t<decltype(typed)>;
        roundKernel<T><<<blocksFor(n), kThreads, 0, stream>>>(src, static_cast<T*>(dst), n);
    });
    NAPKIN_CUDA_CHECK(cudaGetLastError());
}

void mixedOptimizerStep(const OptimizerArgs& args, float* p, const void* g, ElementType type, float* s1,
                        float* s2, void* w, std::size_t n, const LossScalerState* scaler, cudaStream_t stream) {
    if (n == 0)
        return;
    const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    withWorkingType(type, [&](auto* typed) {
        using T = std::remove_pointer_t<decltype(typed)>;
        mixedOptimizerKernel<T><<<blocks, kThreads, 0, stream>>>(args, p, static_cast<const T*>(g), s1, s2,
                                                                 static_cast<T*>(w), n, scaler);
    });
    NAPKIN_CUDA_CHECK(cudaGetLastError());
}

void optimizerStep(const OptimizerArgs& args, float* p, const float* g, float* s1, float* s2, std::size_t n,
                   cudaStream_t stream) {
    if (n == 0)
        return;
    optimizerKernel<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, stream>>>(args, p, g,
                                                                                                   s1, s2, n);
    NAPKIN_CUDA_CHECK(cudaGetLastError());
}

} // namespace napkin::cuda

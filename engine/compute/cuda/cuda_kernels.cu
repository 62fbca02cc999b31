#include "engine/compute/cuda/cuda_kernels.h"

#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/optimizer_update.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

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

__global__ void mseKernel(const float* y, const float* t, float* dy, double* lossSum, long batch) {
    const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
    double r2 = 0;
    if (i < batch) {
        const double r = static_cast<double>(y[i]) - t[i];
        dy[i] = static_cast<float>(2.0 * r / static_cast<double>(batch));
        r2 = r * r;
    }
    for (int offset = 16; offset > 0; offset /= 2) // warp sum, then one atomic per warp
        r2 += __shfl_down_sync(0xffffffffu, r2, offset);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(lossSum, r2);
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

void mseLossAndGradient(const float* y, const float* t, float* dy, double* lossSum, long batch,
                        cudaStream_t stream) {
    const auto blocks = static_cast<unsigned>((batch + kThreads - 1) / kThreads);
    mseKernel<<<blocks, kThreads, 0, stream>>>(y, t, dy, lossSum, batch);
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

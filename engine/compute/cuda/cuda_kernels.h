#pragma once
// The backend's few hand-written kernels (kept small: compile time matters on 2-core CI). Host-callable
// launchers; every launch is checked and throws CudaError.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace napkin::cuda {

enum class ElementType { f32, f64, f16, bf16, e4m3 };

/// dst[i] = uniform in [−1, 1] from a counter-based hash of (seed, i), rounded to `type`: the same
/// values for the same seed on every GPU, with no cuRAND state to keep.
void fillUniform(void* dst, std::size_t count, ElementType type, std::uint64_t seed, cudaStream_t stream);

/// r = y − t; dy = 2·r/B; *lossSum += Σ r² (accumulated in double; the caller zeroes it and divides by B).
void mseLossAndGradient(const float* y, const float* t, float* dy, double* lossSum, long batch,
                        cudaStream_t stream);

/// The optimizer rules of engine/cpu/optimizer_step.h (optimizer_update.h), one thread per element.
/// kind: 0 sgd, 1 momentum, 2 adagrad, 3 rmsprop, 4 adam, 5 adamw (OptimizerKind's order).
struct OptimizerArgs {
    int kind = 0;
    double lr = 0, momentum = 0, alpha = 0, beta1 = 0, beta2 = 0, eps = 0, adagradEps = 0, weightDecay = 0;
    double biasCorrection1 = 1, biasCorrection2 = 1; ///< 1 − β^t for Adam/AdamW
};
void optimizerStep(const OptimizerArgs& args, float* p, const float* g, float* s1, float* s2, std::size_t n,
                   cudaStream_t stream);

} // namespace napkin::cuda

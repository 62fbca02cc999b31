// SPDX-License-Identifier: GPL-3.0-or-later
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

/// dst[i] = float(counterNormal(seed, stream, i)·scale) (engine/compute/counter_normal.h, the function the
/// CPU trainers call on the host).
void fillNormal(float* dst, std::size_t count, std::uint64_t seed, std::uint64_t stream, double scale,
                cudaStream_t cudaStream);

/// The Cruncher's batch of one step, drawn on the device: x[r·D + c] = counterNormal(seed, stream, r·D + c)
/// rounded to float, then to `type` (f32, bf16 or f16, to nearest even); targets[r] = Σ_c x_rc·truth[c]
/// over x as stored, summed in double (the oneDNN trainer's order of rounding). One block per row.
void drawCruncherBatch(void* x, ElementType type, const float* truth, float* targets, long batch, long dim,
                       std::uint64_t seed, std::uint64_t stream, cudaStream_t cudaStream);

/// The dynamic loss scaler's state on the device (torch.amp.GradScaler's _scale, _growth_tracker and
/// found_inf), so that no step waits on the host to learn whether it was skipped.
struct LossScalerState {
    float scale = 65536.0f; ///< GradScaler's init_scale
    int growthTracker = 0;  ///< finite steps since the scale last changed
    int foundInf = 0;       ///< this step's gradients held an inf or NaN: the update is skipped
};
/// GradScaler's defaults: ×2 after 2000 finite steps in a row, ×0.5 on a step with inf/NaN gradients.
struct LossScalerRule {
    float growthFactor = 2.0f, backoffFactor = 0.5f;
    int growthInterval = 2000;
};

/// y and dy in `type` (f32, bf16, f16): r = y − t; dy = s·2·r/B with s = scaler->scale (1 without a
/// scaler), rounded to `type`; *lossSum += Σ r² (in double; the caller zeroes it and divides by B).
void mseLossAndGradient(const void* y, ElementType type, const float* t, void* dy, double* lossSum, long batch,
                        const LossScalerState* scaler, cudaStream_t stream);

/// Sets scaler->foundInf when any of g[0, n) (in `type`) is inf or NaN (GradScaler's unscale_ check).
void findNonFinite(const void* g, ElementType type, std::size_t n, LossScalerState* scaler, cudaStream_t stream);

/// GradScaler.update(): on inf/NaN the scale backs off and the tracker restarts; else the tracker counts and,
/// at the interval, the scale grows. Leaves foundInf as it was, for the host to read.
void updateLossScale(LossScalerState* scaler, LossScalerRule rule, cudaStream_t stream);

/// dst[i] = src[i] rounded to `type` (to nearest even).
void roundFromFloat(const float* src, void* dst, ElementType type, std::size_t n, cudaStream_t stream);

/// The optimizer rules of engine/cpu/optimizer_step.h (optimizer_update.h), one thread per element.
/// kind: 0 sgd, 1 momentum, 2 adagrad, 3 rmsprop, 4 adam, 5 adamw (OptimizerKind's order).
struct OptimizerArgs {
    int kind = 0;
    double lr = 0, momentum = 0, alpha = 0, beta1 = 0, beta2 = 0, eps = 0, adagradEps = 0, weightDecay = 0;
    double biasCorrection1 = 1, biasCorrection2 = 1; ///< 1 − β^t for Adam/AdamW
};
void optimizerStep(const OptimizerArgs& args, float* p, const float* g, float* s1, float* s2, std::size_t n,
                   cudaStream_t stream);

/// Mixed precision: the fp32 master p updated from the gradient g in `type`, widened and multiplied by
/// 1/scale (GradScaler's unscale, in float) where there is a scaler — and not at all when scaler->foundInf
/// (the step is skipped) —, then the working weights w = p rounded to `type`.
void mixedOptimizerStep(const OptimizerArgs& args, float* p, const void* g, ElementType type, float* s1,
                        float* s2, void* w, std::size_t n, const LossScalerState* scaler, cudaStream_t stream);

} // namespace napkin::cuda

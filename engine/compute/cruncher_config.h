// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lecture's Cruncher as a training job: L bias-free D×D layers, a D×1 head, MSE loss.
#include "engine/accounting/optimizer_kind.h"
#include "engine/accounting/precision_recipe.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// Optimizer hyper-parameters (PyTorch's defaults where the lecture says nothing).
struct OptimizerHyper {
    double learningRate = 0.01;
    double momentum = 0.9; ///< momentum: v = μ·v + g
    double alpha = 0.99;   ///< RMSProp: s = α·s + (1 − α)·g²
    double beta1 = 0.9, beta2 = 0.999;
    double eps = 1e-8;         ///< RMSProp, Adam, AdamW: added to √v
    double adagradEps = 1e-5;  ///< AdaGrad as the lecture writes it: √(g2 + 1e-5)
    double weightDecay = 0.01; ///< AdamW only (decoupled)
};

/// A learning rate per optimizer with which the Cruncher's loss falls steadily on the synthetic task.
/// Adaptive methods (AdaGrad, RMSProp, Adam, AdamW) move every weight by about lr per step whatever its
/// gradient, so their rate shrinks as 32/D beyond D = 32 (tried: Adam at 0.005 diverges at D = 1024).
double defaultLearningRate(OptimizerKind kind, long dim);

struct CruncherConfig {
    long dim = 4;    ///< D
    long layers = 2; ///< L
    long batch = 2;  ///< B
    OptimizerKind optimizer = OptimizerKind::adagrad;
    OptimizerHyper hyper;
    /// fp32, or mixed-bf16 (bf16 weights, gradients and activations in the GEMMs, fp32 master weights and
    /// optimizer state) where the backend runs it (BenchmarkBackend::unsupportedPrecisionReason).
    PrecisionRecipe precision = PrecisionRecipe::fp32;
    /// fp32 with the GEMMs on TF32 tensor cores (inputs rounded to 10 mantissa bits, fp32 accumulation and
    /// storage: torch.backends.cuda.matmul.allow_tf32): a matmul mode, so memory is fp32's. CUDA only.
    bool tf32Matmuls = false;
    std::uint64_t seedInit = 0; ///< weights: N(0,1)/√fan_in
    std::uint64_t seedData = 1; ///< the target function and every batch
    /// Layers that do not train, counted from 1, ascending (engine/accounting/frozen_layers.h): no
    /// gradient, no optimizer state, no master weights; the head always trains.
    std::vector<long> frozenLayers;
};

/// A training recipe's name: the precision recipe's (fp32, mixed-bf16, mixed-fp16, ...), or "tf32" for
/// fp32 with tf32Matmuls.
std::string trainingRecipeName(const CruncherConfig& config);
/// Sets config.precision and config.tf32Matmuls from such a name; false (and config unchanged) when unknown.
bool setTrainingRecipe(CruncherConfig& config, std::string_view name);
/// The dtype whose dense peak the recipe's GEMMs run at, as benchmark dtypes are named: "fp32", "tf32",
/// "bf16" (mixed-bf16, bf16), "fp16" (mixed-fp16, fp16), "fp8-e4m3" (fp8-mixed).
std::string trainingComputeDtype(const CruncherConfig& config);

/// P = L·D² + D.
double cruncherParameters(const CruncherConfig& config);
/// P less the frozen layers' |frozen|·D².
double cruncherTrainableParameters(const CruncherConfig& config);
/// FLOPs of the GEMMs one training step issues (2·m·n·k each): forward 2·B·P, backward 4·B·P − 2·B·D²
/// (the first layer needs no gradient with respect to the input batch). Total 6·B·P − 2·B·D².
/// With frozen layers, backward issues 2·B·D² less per frozen layer (no dW) and stops at the lowest layer
/// that trains (no dL/dx there or below).
double cruncherCountedFlopsPerStep(const CruncherConfig& config);

} // namespace napkin

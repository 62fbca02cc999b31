// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// DeepSpeed's ZeRO memory estimators (microsoft/DeepSpeed): the bytes of parameters, gradients and
// optimizer state per GPU and per CPU that its estimate_zero{2,3}_model_states_mem_needs functions print,
// and what they would print for a Napkin setup beside Napkin's own number.
#include "engine/accounting/accounting.h"
#include "engine/peers/peer_estimate.h"

namespace napkin {

/// Bytes the estimator prints, per GPU and per CPU (the "per CPU | per GPU" table).
struct DeepSpeedMemory {
    double gpuBytes = 0, cpuBytes = 0;
};

/// Which release's ZeRO-2 formula: DeepSpeed PR #5099 (2024) changed 4·N + 16·N/G into 2·N + 18·N/G
/// ("was considering 4 bytes per model param"); the docs' Memory Requirements page still prints tables
/// made with the earlier one.
enum class DeepSpeedZero2Formula { current, beforePr5099 };

/// deepspeed/runtime/zero/stage_1_and_2.py, estimate_zero2_model_states_mem_needs (commit 022f223):
/// offload: GPU 2·N, CPU N·max(4·G, 16)·k; else GPU 2·N + int(18·N/G), CPU 4·N·g·k; G = g·nodes GPUs,
/// g per node, k the additional buffer factor (1.5). Python's int() truncation is kept.
DeepSpeedMemory deepSpeedZero2(double totalParams, double gpusPerNode, double nodes, bool cpuOffload,
                               double bufferFactor = 1.5,
                               DeepSpeedZero2Formula formula = DeepSpeedZero2Formula::current);

/// deepspeed/runtime/zero/stage3.py, estimate_zero3_model_states_mem_needs: 4·largest (the gathered
/// 16-bit parameters and gradients of the largest module) plus, without offload, int(18·N/G); with the
/// optimizer offloaded int(2·N/G); with the parameters offloaded too, nothing more. The CPU side as the
/// docs' table: 18, 16 or 4 bytes per parameter per node, or 4·largest·g with zero.Init.
DeepSpeedMemory deepSpeedZero3(double totalParams, double largestLayerParams, double gpusPerNode,
                               double nodes, bool cpuOffload, bool cpuOffloadParams, bool zeroInit,
                               double bufferFactor = 1.5);

/// The parameters of the largest single module, as DeepSpeed's model_to_params measures a live model
/// (each module's own parameters, recurse=False): a transformer's token embedding V·d, or its widest MLP
/// matrix where larger; the Cruncher's D·D; linear2's larger matrix. Unset for `dense` (no modules).
std::optional<double> largestModuleParameters(const ModelSpec& model);

/// What DeepSpeed's estimator for the setup's ZeRO stage (2 or 3) would print as GPU memory, beside
/// Napkin's model states per GPU, the difference split into parameters, gradients, master weights,
/// optimizer state and (ZeRO-3) the gathered largest layer.
PeerEstimate deepSpeedEstimate(const AccountingInput& input, const AccountingResult& result);

} // namespace napkin

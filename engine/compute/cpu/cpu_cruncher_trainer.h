// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lecture's Cruncher trained on the CPU with Eigen: forward and backward written out as GEMMs,
// every buffer allocated through a MemoryLedger under its tag, in PyTorch's eager order: activations
// made in forward and freed in backward after their last use, gradients made in backward and freed at
// zero_grad(set_to_none=True), optimizer state made at the first update. The ledger's bytes are
// recorded at the events of engine/accounting/memory_timeline.h. Frozen layers (config.frozenLayers)
// follow engine/accounting/frozen_layers.h, as the prediction does. The target function and every batch
// come from the counter-based generator of engine/compute/counter_normal.h, as on every backend.
#include "engine/compute/benchmark_backend.h"
#include "engine/compute/memory_timeline_recorder.h"

#include <vector>

namespace napkin {

class CpuCruncherTrainer final : public CruncherTrainer {
public:
    /// Throws std::invalid_argument for non-positive sizes.
    explicit CpuCruncherTrainer(const CruncherConfig& config);

    double step() override;
    long stepsDone() const override { return steps_; }
    const MemoryLedger& ledger() const override { return ledger_; }
    void saveCheckpoint(const std::string& path) const override;
    void loadCheckpoint(const std::string& path) override;
    std::vector<float> parameters() const override;
    std::vector<TimelineEvent> measuredTimeline() const override { return recorder_.lastStep(); }

private:
    void drawBatch();
    double forwardAndLoss(); ///< forward, the loss and dL/dy; returns the loss
    void backward();
    void optimizerStep();
    void createOptimizerState();
    bool trains(std::size_t layer) const; ///< layer (from 0) is not frozen
    std::vector<std::size_t> checkpointSizes() const;
    std::vector<AccountedBuffer*> parameterTensors();
    std::vector<const AccountedBuffer*> parameterTensors() const;

    CruncherConfig config_;
    MemoryLedger ledger_; // declared before the buffers: it must outlive them
    MemoryTimelineRecorder recorder_{ledger_};
    // parameters: weights_[0..L-1] are D×D (row-major, y = x·W), head_ is D×1. Gradients exist from
    // the backward that makes them to zero_grad; optimizer state from the first update (or a resume) on.
    std::vector<AccountedBuffer> weights_, weightGrads_, state1_, state2_;
    AccountedBuffer head_, headGrad_, headState1_, headState2_;
    bool haveState_ = false;
    // activations kept for backward: outputs_[l] = h_{l+1}, each B×D (the lecture's B·D·L), from its
    // forward to its last use in backward
    std::vector<AccountedBuffer> outputs_;
    AccountedBuffer batch_, targets_, truth_; // inputs: X (B×D), t (B), the target function w* (D)
    AccountedBuffer prediction_, lossGrad_;   // workspace: y (B), dL/dy (B)
    AccountedBuffer upstream_, downstream_;   // workspace: dL/dh of a layer's output and of its input (B×D)
    long steps_ = 0;
};

} // namespace napkin

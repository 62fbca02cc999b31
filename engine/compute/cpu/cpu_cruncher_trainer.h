#pragma once
// The lecture's Cruncher trained on the CPU with Eigen: forward and backward written out as GEMMs,
// every buffer allocated through a MemoryLedger under its tag.
#include "engine/compute/benchmark_backend.h"
#include "engine/numerics/gaussian_source.h"

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

private:
    void drawBatch();
    std::vector<AccountedBuffer*> parameterTensors();
    std::vector<const AccountedBuffer*> parameterTensors() const;

    CruncherConfig config_;
    MemoryLedger ledger_; // declared before the buffers: it must outlive them
    // parameters: weights_[0..L-1] are D×D (row-major, y = x·W), head_ is D×1
    std::vector<AccountedBuffer> weights_, weightGrads_, state1_, state2_;
    AccountedBuffer head_, headGrad_, headState1_, headState2_;
    // activations kept for backward: outputs_[l] = h_{l+1}, each B×D (the lecture's B·D·L)
    std::vector<AccountedBuffer> outputs_;
    AccountedBuffer batch_, targets_, truth_; // inputs: X (B×D), t (B), the target function w* (D)
    AccountedBuffer prediction_, lossGrad_;   // workspace: y (B), dL/dy (B)
    AccountedBuffer upstream_, downstream_;   // workspace: dL/dh ping-pong (B×D each)
    GaussianSource data_;
    long steps_ = 0;
};

} // namespace napkin

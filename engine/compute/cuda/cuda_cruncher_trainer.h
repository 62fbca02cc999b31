#pragma once
// The lecture's Cruncher trained on the GPU in fp32: the same forward/backward GEMMs as the CPU trainer
// (engine/cpu/cpu_cruncher_trainer.h) through cuBLAS (TF32 off), MSE loss and the optimizer as fused
// kernels. Batches and initial weights come from the same seeded host generators as the CPU trainer,
// so both see identical data and their losses agree to fp32 GEMM rounding; the next batch is drawn on a
// host thread into pinned memory while the GPU runs the step (pinned_batch_queue.h), and CUDA events
// time the device's part of each step apart from the host's (lastStepTiming()). Unlike the CPU trainer
// it allocates every buffer up front, so it records no memory timeline (measuredTimeline() is empty).
#include "engine/compute/benchmark_backend.h"
#include "engine/compute/cuda/cuda_handles.h"
#include "engine/compute/cuda/pinned_batch_queue.h"
#include "engine/numerics/gaussian_source.h"

#include <memory>
#include <vector>

namespace napkin::cuda {

struct CudaContext;

class CudaCruncherTrainer final : public CruncherTrainer {
public:
    /// Throws std::invalid_argument for non-positive sizes, CudaError when the GPU cannot hold it.
    CudaCruncherTrainer(std::shared_ptr<CudaContext> context, const CruncherConfig& config);

    double step() override;
    long stepsDone() const override { return steps_; }
    const MemoryLedger& ledger() const override { return ledger_; }
    void saveCheckpoint(const std::string& path) const override;
    void loadCheckpoint(const std::string& path) override;
    std::vector<float> parameters() const override;

    /// Device memory the allocations took by cudaMemGetInfo (free before − free after): the ledger's
    /// bytes rounded up to the allocator's granularity, plus anything else the process allocated meanwhile.
    std::optional<double> allocatorReportedBytes() const override { return memGetInfoBytes_; }
    std::optional<DeviceStepTiming> lastStepTiming() const override { return timing_; }
    std::vector<DeviceAllocation> deviceAllocations() const override { return deviceAllocations_; }

private:
    struct Tensor {
        float* data = nullptr;
        std::size_t count = 0;
    };
    Tensor allocate(MemoryTag tag, std::size_t count);
    void upload(Tensor t, const std::vector<float>& host);
    std::vector<float> download(Tensor t) const;
    void gemm(bool transA, bool transB, long m, long n, long k, const float* a, const float* b, float* c);
    std::vector<Tensor> checkpointTensors() const; ///< per layer then head: parameters, state 1, state 2

    std::shared_ptr<CudaContext> ctx_;
    CruncherConfig config_;
    MemoryLedger ledger_;
    std::vector<DeviceBuffer> buffers_; // owners of every Tensor below
    std::vector<Tensor> weights_, weightGrads_, state1_, state2_, outputs_;
    Tensor head_, headGrad_, headState1_, headState2_;
    Tensor batch_, targets_, truth_, prediction_, lossGrad_, upstream_, downstream_;
    DeviceBuffer lossSum_;                      // one double, not a Cruncher tensor (not in the ledger)
    std::unique_ptr<PinnedBatchQueue> batches_; // owns the data generator once the target function is drawn
    Event stepStart_, batchCopied_, stepDone_;
    std::optional<DeviceStepTiming> timing_;
    std::vector<DeviceAllocation> deviceAllocations_; ///< per component, then the first step's own
    bool firstStepMeasured_ = false;
    long steps_ = 0;
    double memGetInfoBytes_ = 0;
};

} // namespace napkin::cuda

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lecture's Cruncher trained on the GPU: the same forward/backward GEMMs as the CPU trainers
// (engine/compute/cpu) through cublasGemmEx with fp32 accumulation, MSE loss and the optimizer as fused
// kernels, in the recipes of CruncherConfig: fp32 (TF32 off), tf32 (fp32 storage, TF32 tensor-core GEMMs),
// mixed-bf16 and mixed-fp16 (16-bit weights, gradients, activations and batch; fp32 master weights and
// optimizer state; mixed-fp16 with torch.amp.GradScaler's dynamic loss scaling, kept on the device). Each
// step's batch is drawn on the device by the counter-based generator the CPU trainers call on the host
// (engine/compute/counter_normal.h), so both see the same data and the host waits on nothing; the initial
// weights come from the same seeded host generator as the CPU trainers'. CUDA events time the draw and
// the step's work (lastStepTiming()). Unlike the CPU trainers it allocates every buffer up front, each in
// the ledger with its own dtype, so it records no memory timeline (measuredTimeline() is empty).
// A checkpoint holds the fp32 (master) weights and state; mixed-fp16's loss scale is not in the format,
// so a resumed run starts it at 65536 again.
#include "engine/compute/benchmark_backend.h"
#include "engine/compute/cuda/cuda_cruncher_plan.h"
#include "engine/compute/cuda/cuda_handles.h"
#include "engine/compute/cuda/cuda_kernels.h"

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

    /// mixed-fp16: the loss scale now and the steps whose update was skipped for inf/NaN gradients.
    double lossScale() const { return lossScale_; }
    long skippedSteps() const { return skippedSteps_; }

private:
    struct Tensor {
        void* data = nullptr;
        std::size_t count = 0;
        ElementType type = ElementType::f32;
        float* floats() const { return type == ElementType::f32 ? static_cast<float*>(data) : nullptr; }
    };
    /// One parameter tensor: the weights the GEMMs read (the working type), the fp32 master the optimizer
    /// updates (mixed precision only; else the weights are the master), the gradient, the state.
    struct Parameter {
        Tensor weights, master, gradient, state1, state2;
        Tensor fp32() const { return master.data ? master : weights; }
    };
    Tensor allocate(MemoryTag tag, std::size_t count, ElementType type);
    void place(const PlannedBuffer& buffer, Tensor t);
    void upload(Tensor t, const std::vector<float>& host);
    std::vector<float> download(Tensor t) const;
    void setWeights(const Parameter& p, const std::vector<float>& fp32);
    void gemm(bool transA, bool transB, long m, long n, long k, const void* a, const void* b, void* c);
    void update(const Parameter& p, const OptimizerArgs& args);
    std::vector<Tensor> checkpointTensors() const; ///< per layer then head: fp32 weights, state 1, state 2
    bool mixed() const { return working_ != ElementType::f32; }

    std::shared_ptr<CudaContext> ctx_;
    CruncherConfig config_;
    ElementType working_ = ElementType::f32; ///< the GEMMs' type: f32, bf16 or f16
    bool scaled_ = false;                    ///< mixed-fp16: dynamic loss scaling
    MemoryLedger ledger_;
    std::vector<DeviceBuffer> buffers_; // owners of every Tensor below
    std::vector<Parameter> layers_;
    Parameter head_;
    std::vector<Tensor> outputs_;
    Tensor batch_, targets_, truth_, prediction_, lossGrad_, upstream_, downstream_;
    DeviceBuffer lossSum_; // one double: not a Cruncher tensor (not in the ledger)
    DeviceBuffer scaler_;  // mixed-fp16: LossScalerState, 12 bytes, not a Cruncher tensor either
    Event stepStart_, batchDrawn_, stepDone_;
    std::optional<DeviceStepTiming> timing_;
    std::vector<DeviceAllocation> deviceAllocations_; ///< per component, then the first step's own
    bool firstStepMeasured_ = false;
    long steps_ = 0;
    long optimizerSteps_ = 0; ///< updates applied (Adam's bias-correction step): steps less skipped ones
    long skippedSteps_ = 0;
    double lossScale_ = 1;
    double memGetInfoBytes_ = 0;
};

} // namespace napkin::cuda

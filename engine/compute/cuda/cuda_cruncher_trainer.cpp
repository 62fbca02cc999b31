// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_cruncher_trainer.h"

#include "engine/compute/counter_normal.h"
#include "engine/compute/cruncher_checkpoint.h"
#include "engine/compute/cuda/cuda_cruncher_plan.h"
#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/cuda_matmul_problem.h"
#include "engine/compute/cuda/cuda_optimizer_args.h"
#include "engine/numerics/gaussian_source.h"

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace napkin::cuda {
namespace {

cudaDataType_t cudaType(ElementType type) {
    switch (type) {
    case ElementType::bf16:
        return CUDA_R_16BF;
    case ElementType::f16:
        return CUDA_R_16F;
    default:
        return CUDA_R_32F;
    }
}

} // namespace

CudaCruncherTrainer::CudaCruncherTrainer(std::shared_ptr<CudaContext> context, const CruncherConfig& config)
    : ctx_(std::move(context))
    , config_(config)
    , working_(cruncherWorkingType(config))
    , scaled_(config.precision == PrecisionRecipe::mixedFp16) {
    if (config.dim <= 0 || config.layers <= 0 || config.batch <= 0)
        throw std::invalid_argument("the Cruncher needs dim, layers and batch > 0");
    const std::vector<PlannedBuffer> plan = cruncherBufferPlan(config); // every buffer, at its own dtype
    layers_.resize(static_cast<std::size_t>(config.layers));
    outputs_.resize(static_cast<std::size_t>(config.layers));
    std::size_t freeBefore = 0, total = 0;
    NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeBefore, &total));
    std::size_t freeNow = freeBefore;
    // One component at a time, each followed by cudaMemGetInfo: the drop in free memory per component,
    // beside the bytes asked for, shows where the driver's granularity lands.
    for (std::size_t next = 0; next < plan.size();) {
        const std::string name = plan[next].component;
        const std::size_t first = buffers_.size();
        for (; next < plan.size() && name == plan[next].component; ++next)
            place(plan[next], allocate(plan[next].tag, plan[next].count, plan[next].type));
        ctx_->stream.synchronize();
        DeviceAllocation a;
        a.component = name;
        for (std::size_t i = first; i < buffers_.size(); ++i)
            a.requestedBytes += static_cast<double>(buffers_[i].bytes());
        a.buffers = static_cast<int>(buffers_.size() - first);
        std::size_t freeAfter = 0;
        NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeAfter, &total));
        a.memGetInfoBytes = static_cast<double>(freeNow) - static_cast<double>(freeAfter);
        freeNow = freeAfter;
        deviceAllocations_.push_back(std::move(a));
    }
    lossSum_ = DeviceBuffer(sizeof(double)); // not Cruncher tensors: in the total drop only
    if (scaled_) {
        scaler_ = DeviceBuffer(sizeof(LossScalerState));
        const LossScalerState initial;
        NAPKIN_CUDA_CHECK(cudaMemcpyAsync(scaler_.get(), &initial, sizeof initial, cudaMemcpyHostToDevice,
                                          ctx_->stream.get()));
        ctx_->stream.synchronize(); // before `initial` goes
        lossScale_ = initial.scale;
    }
    ctx_->stream.synchronize();
    std::size_t freeAfter = 0;
    NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeAfter, &total));
    memGetInfoBytes_ = static_cast<double>(freeBefore) - static_cast<double>(freeAfter);

    // The initial weights from the init seed, in the CPU trainers' order (layers, then the head), as fp32;
    // the working weights are rounded from them. The target function: the data seed's stream 0.
    GaussianSource init(config.seedInit);
    const double scale = 1.0 / std::sqrt(static_cast<double>(config.dim));
    auto draw = [&](std::size_t n) {
        std::vector<float> v(n);
        for (float& w : v)
            w = static_cast<float>(init.next() * scale);
        return v;
    };
    for (const Parameter& p : layers_)
        setWeights(p, draw(p.weights.count));
    setWeights(head_, draw(head_.weights.count));
    fillNormal(static_cast<float*>(truth_.data), truth_.count, config.seedData, kCruncherTargetStream, scale,
               ctx_->stream.get());
    ctx_->stream.synchronize();
}

// The plan's buffer in its member: the layer's parameter (the head's at index L), output, or input/workspace.
void CudaCruncherTrainer::place(const PlannedBuffer& b, Tensor t) {
    Parameter& p = b.layer < layers_.size() ? layers_[b.layer] : head_;
    switch (b.role) {
    case BufferRole::weights:
        p.weights = t;
        return;
    case BufferRole::master:
        p.master = t;
        return;
    case BufferRole::gradient:
        p.gradient = t;
        return;
    case BufferRole::state1:
        p.state1 = t;
        return;
    case BufferRole::state2:
        p.state2 = t;
        return;
    case BufferRole::output:
        outputs_[b.layer] = t;
        return;
    case BufferRole::batch:
        batch_ = t;
        return;
    case BufferRole::targets:
        targets_ = t;
        return;
    case BufferRole::truth:
        truth_ = t;
        return;
    case BufferRole::prediction:
        prediction_ = t;
        return;
    case BufferRole::lossGrad:
        lossGrad_ = t;
        return;
    case BufferRole::upstream:
        upstream_ = t;
        return;
    case BufferRole::downstream:
        downstream_ = t;
        return;
    }
}

CudaCruncherTrainer::Tensor CudaCruncherTrainer::allocate(MemoryTag tag, std::size_t count, ElementType type) {
    const std::size_t bytes = count * elementBytes(type);
    buffers_.emplace_back(bytes);
    NAPKIN_CUDA_CHECK(cudaMemsetAsync(buffers_.back().get(), 0, bytes, ctx_->stream.get()));
    ledger_.recordExternal(tag, static_cast<double>(bytes));
    return {buffers_.back().get(), count, type};
}

void CudaCruncherTrainer::upload(Tensor t, const std::vector<float>& host) {
    if (t.type != ElementType::f32 || host.size() != t.count)
        throw std::logic_error("upload: an fp32 tensor of the host vector's size");
    NAPKIN_CUDA_CHECK(cudaMemcpyAsync(t.data, host.data(), t.count * sizeof(float), cudaMemcpyHostToDevice,
                                      ctx_->stream.get()));
    ctx_->stream.synchronize(); // `host` may be a temporary
}

std::vector<float> CudaCruncherTrainer::download(Tensor t) const {
    std::vector<float> host(t.count);
    if (t.count > 0) {
        NAPKIN_CUDA_CHECK(cudaMemcpyAsync(host.data(), t.data, t.count * sizeof(float), cudaMemcpyDeviceToHost,
                                          ctx_->stream.get()));
        ctx_->stream.synchronize();
    }
    return host;
}

// The fp32 weights (the master in mixed precision), and the working copy rounded from them.
void CudaCruncherTrainer::setWeights(const Parameter& p, const std::vector<float>& fp32) {
    upload(p.fp32(), fp32);
    if (mixed())
        roundFromFloat(static_cast<const float*>(p.master.data), p.weights.data, working_, p.weights.count,
                       ctx_->stream.get());
}

// C (m×n) = op(A)·op(B) with every matrix row-major, as the CPU trainers write them, all in the working
// type with fp32 accumulation. cuBLAS is column-major, where a row-major matrix reads as its transpose: so
// compute Cᵀ = op(B)ᵀ·op(A)ᵀ. tf32: fp32 storage, CUBLAS_COMPUTE_32F_FAST_TF32; else CUBLAS_COMPUTE_32F
// (the handle keeps CUBLAS_DEFAULT_MATH, so fp32 stays fp32).
void CudaCruncherTrainer::gemm(bool transA, bool transB, long m, long n, long k, const void* a, const void* b,
                               void* c) {
    const float one = 1, zero = 0;
    const cudaDataType_t type = cudaType(working_);
    const cublasComputeType_t compute = config_.tf32Matmuls ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    NAPKIN_CUBLAS_CHECK(cublasGemmEx(ctx_->blas.get(), transB ? CUBLAS_OP_T : CUBLAS_OP_N,
                                     transA ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m),
                                     static_cast<int>(k), &one, b, type, static_cast<int>(transB ? k : n), a, type,
                                     static_cast<int>(transA ? m : k), &zero, c, type, static_cast<int>(n),
                                     compute, CUBLAS_GEMM_DEFAULT));
}

void CudaCruncherTrainer::update(const Parameter& p, const OptimizerArgs& args) {
    const cudaStream_t s = ctx_->stream.get();
    auto* s1 = static_cast<float*>(p.state1.data);
    auto* s2 = static_cast<float*>(p.state2.data);
    if (!mixed()) {
        optimizerStep(args, p.weights.floats(), p.gradient.floats(), s1, s2, p.weights.count, s);
        return;
    }
    mixedOptimizerStep(args, static_cast<float*>(p.master.data), p.gradient.data, working_, s1, s2, p.weights.data,
                       p.weights.count, scaled_ ? scaler_.as<LossScalerState>() : nullptr, s);
}

double CudaCruncherTrainer::step() {
    const long B = config_.batch, D = config_.dim, L = config_.layers;
    const cudaStream_t s = ctx_->stream.get();
    // The first step of this trainer: what the driver allocates on its own (cuBLAS's workspace, kernels
    // loaded on first use) shows as a drop in free memory across it.
    std::size_t freeBeforeStep = 0, total = 0;
    if (!firstStepMeasured_)
        NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeBeforeStep, &total));
    LossScalerState* scaler = scaled_ ? scaler_.as<LossScalerState>() : nullptr;
    stepStart_.record(s);
    // This step's batch X and targets t = X·w*, drawn on the device (the data seed's stream steps_ + 1).
    drawCruncherBatch(batch_.data, working_, static_cast<const float*>(truth_.data),
                      static_cast<float*>(targets_.data), B, D, config_.seedData, cruncherBatchStream(steps_ + 1),
                      s);
    batchDrawn_.record(s);
    // Forward: h_l = h_{l−1}·W_l, y = h_L·w.
    for (long l = 0; l < L; ++l) {
        const void* in = l == 0 ? batch_.data : outputs_[static_cast<std::size_t>(l - 1)].data;
        gemm(false, false, B, D, D, in, layers_[static_cast<std::size_t>(l)].weights.data,
             outputs_[static_cast<std::size_t>(l)].data);
    }
    const void* last = outputs_.back().data;
    gemm(false, false, B, 1, D, last, head_.weights.data, prediction_.data);
    NAPKIN_CUDA_CHECK(cudaMemsetAsync(lossSum_.get(), 0, sizeof(double), s));
    if (scaler) // this step's flag only: the scale and its growth tracker carry over
        NAPKIN_CUDA_CHECK(cudaMemsetAsync(scaler_.as<char>() + offsetof(LossScalerState, foundInf), 0,
                                          sizeof(int), s));
    mseLossAndGradient(prediction_.data, working_, static_cast<const float*>(targets_.data), lossGrad_.data,
                       lossSum_.as<double>(), B, scaler, s);
    // Backward: dw = h_Lᵀ·dy; dh_L = dy·wᵀ; dW_l = h_{l−1}ᵀ·dh_l; dh_{l−1} = dh_l·W_lᵀ (not for l = 1).
    gemm(true, false, D, 1, B, last, lossGrad_.data, head_.gradient.data);
    gemm(false, false, B, D, 1, lossGrad_.data, head_.weights.data, upstream_.data);
    for (long l = L - 1; l >= 0; --l) {
        const auto li = static_cast<std::size_t>(l);
        const void* in = l == 0 ? batch_.data : outputs_[li - 1].data;
        gemm(true, false, D, D, B, in, upstream_.data, layers_[li].gradient.data);
        if (l > 0) {
            gemm(false, true, B, D, D, upstream_.data, layers_[li].weights.data, downstream_.data);
            std::swap(upstream_, downstream_);
        }
    }
    ++steps_;
    // GradScaler.step: every gradient checked for inf/NaN first; the update kernels then skip themselves
    // on the device when one was found, and the scale is updated there too.
    if (scaler) {
        for (const Parameter& p : layers_)
            findNonFinite(p.gradient.data, working_, p.gradient.count, scaler, s);
        findNonFinite(head_.gradient.data, working_, head_.gradient.count, scaler, s);
    }
    const OptimizerArgs args = optimizerArgsFor(config_, optimizerSteps_ + 1);
    for (const Parameter& p : layers_)
        update(p, args);
    update(head_, args);
    if (scaler)
        updateLossScale(scaler, LossScalerRule{}, s);
    stepDone_.record(s);
    double lossSum = 0;
    LossScalerState scalerAfter;
    NAPKIN_CUDA_CHECK(cudaMemcpyAsync(&lossSum, lossSum_.get(), sizeof lossSum, cudaMemcpyDeviceToHost, s));
    if (scaler)
        NAPKIN_CUDA_CHECK(cudaMemcpyAsync(&scalerAfter, scaler, sizeof scalerAfter, cudaMemcpyDeviceToHost, s));
    ctx_->stream.synchronize(); // the step is complete when it returns (the benchmark times whole steps)
    if (scaler && scalerAfter.foundInf) {
        ++skippedSteps_;
    } else {
        ++optimizerSteps_;
    }
    if (scaler)
        lossScale_ = scalerAfter.scale;
    if (!firstStepMeasured_) {
        std::size_t freeAfterStep = 0;
        NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeAfterStep, &total));
        DeviceAllocation a;
        a.component = "first step (not the trainer's: cuBLAS workspace, kernels loaded on first use)";
        a.memGetInfoBytes = static_cast<double>(freeBeforeStep) - static_cast<double>(freeAfterStep);
        deviceAllocations_.push_back(std::move(a));
        firstStepMeasured_ = true;
    }
    DeviceStepTiming t;
    t.deviceSeconds = stepDone_.secondsSince(batchDrawn_);
    t.drawSeconds = batchDrawn_.secondsSince(stepStart_);
    timing_ = t;
    return lossSum / static_cast<double>(B);
}

std::vector<CudaCruncherTrainer::Tensor> CudaCruncherTrainer::checkpointTensors() const {
    std::vector<Tensor> all;
    for (const Parameter& p : layers_)
        all.insert(all.end(), {p.fp32(), p.state1, p.state2});
    all.insert(all.end(), {head_.fp32(), head_.state1, head_.state2});
    return all;
}

std::vector<float> CudaCruncherTrainer::parameters() const {
    std::vector<float> all;
    for (const Parameter& p : layers_) {
        const std::vector<float> host = download(p.fp32());
        all.insert(all.end(), host.begin(), host.end());
    }
    const std::vector<float> head = download(head_.fp32());
    all.insert(all.end(), head.begin(), head.end());
    return all;
}

// The format and every check are engine/compute/cruncher_checkpoint.h's, shared with the CPU trainers.
void CudaCruncherTrainer::saveCheckpoint(const std::string& path) const {
    CruncherCheckpoint checkpoint;
    checkpoint.step = steps_;
    for (const Tensor& t : checkpointTensors())
        checkpoint.tensors.push_back(download(t));
    checkpoint.dataGenerator = cruncherCheckpointGenerator(config_);
    saveCruncherCheckpoint(path, config_, checkpoint);
}

void CudaCruncherTrainer::loadCheckpoint(const std::string& path) {
    const std::vector<Tensor> tensors = checkpointTensors();
    std::vector<std::size_t> sizes;
    sizes.reserve(tensors.size());
    for (const Tensor& t : tensors)
        sizes.push_back(t.count);
    // Loaded and checked whole before any device tensor changes: a bad file leaves the trainer as it was.
    const CruncherCheckpoint checkpoint = loadCruncherCheckpoint(path, config_, sizes);
    for (std::size_t i = 0; i < tensors.size(); ++i)
        if (tensors[i].count > 0)
            upload(tensors[i], checkpoint.tensors[i]);
    if (mixed()) {
        for (const Parameter& p : layers_)
            roundFromFloat(static_cast<const float*>(p.master.data), p.weights.data, working_, p.weights.count,
                           ctx_->stream.get());
        roundFromFloat(static_cast<const float*>(head_.master.data), head_.weights.data, working_,
                       head_.weights.count, ctx_->stream.get());
        ctx_->stream.synchronize();
    }
    steps_ = optimizerSteps_ = checkpoint.step; // the data stream resumes from the step alone
}

} // namespace napkin::cuda

#include "engine/compute/cuda/cuda_cruncher_trainer.h"

#include "engine/compute/cruncher_checkpoint.h"
#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/cuda_kernels.h"
#include "engine/compute/cuda/cuda_matmul_problem.h"
#include "engine/compute/cuda/cuda_optimizer_args.h"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace napkin::cuda {

CudaCruncherTrainer::CudaCruncherTrainer(std::shared_ptr<CudaContext> context, const CruncherConfig& config)
    : ctx_(std::move(context))
    , config_(config) {
    if (config.dim <= 0 || config.layers <= 0 || config.batch <= 0)
        throw std::invalid_argument("the Cruncher needs dim, layers and batch > 0");
    const auto d = static_cast<std::size_t>(config.dim), b = static_cast<std::size_t>(config.batch);
    const int states = stateTensorsPerParameter(config.optimizer);
    std::size_t freeBefore = 0, total = 0;
    NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeBefore, &total));
    std::size_t freeNow = freeBefore;
    // One component at a time, each followed by cudaMemGetInfo: the drop in free memory per component,
    // beside the bytes asked for, shows where the driver's granularity lands.
    auto component = [&](const char* name, const auto& allocateAll) {
        const std::size_t first = buffers_.size();
        allocateAll();
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
    };
    auto stateOf = [&](int which, std::size_t n) {
        return states > which ? allocate(MemoryTag::optimizerState, n) : Tensor{};
    };
    // Same draw order as the CPU trainer: layer weights, then the head, from the init seed.
    GaussianSource init(config.seedInit);
    const double scale = 1.0 / std::sqrt(static_cast<double>(config.dim));
    auto draw = [&](std::size_t n) {
        std::vector<float> v(n);
        for (float& w : v)
            w = static_cast<float>(init.next() * scale);
        return v;
    };
    component("parameters", [&] {
        for (long l = 0; l < config.layers; ++l) {
            weights_.push_back(allocate(MemoryTag::parameters, d * d));
            upload(weights_.back(), draw(d * d));
        }
        head_ = allocate(MemoryTag::parameters, d);
        upload(head_, draw(d));
    });
    component("gradients", [&] {
        for (long l = 0; l < config.layers; ++l)
            weightGrads_.push_back(allocate(MemoryTag::gradients, d * d));
        headGrad_ = allocate(MemoryTag::gradients, d);
    });
    component("optimizer_state", [&] {
        for (long l = 0; l < config.layers; ++l) {
            state1_.push_back(stateOf(0, d * d));
            state2_.push_back(stateOf(1, d * d));
        }
        headState1_ = stateOf(0, d);
        headState2_ = stateOf(1, d);
    });
    component("activations", [&] {
        for (long l = 0; l < config.layers; ++l)
            outputs_.push_back(allocate(MemoryTag::activations, b * d));
    });
    // The data generator draws the target function first, then every batch in order (as the CPU trainer).
    GaussianSource data(config.seedData);
    component("inputs", [&] {
        batch_ = allocate(MemoryTag::inputs, b * d);
        targets_ = allocate(MemoryTag::inputs, b);
        truth_ = allocate(MemoryTag::inputs, d);
        std::vector<float> truth(d);
        for (float& w : truth)
            w = static_cast<float>(data.next() * scale);
        upload(truth_, truth);
    });
    component("workspace", [&] {
        prediction_ = allocate(MemoryTag::workspace, b);
        lossGrad_ = allocate(MemoryTag::workspace, b);
        upstream_ = allocate(MemoryTag::workspace, b * d);
        downstream_ = allocate(MemoryTag::workspace, b * d);
    });
    lossSum_ = DeviceBuffer(sizeof(double)); // one double: not a Cruncher tensor, in the total drop only
    ctx_->stream.synchronize();
    std::size_t freeAfter = 0;
    NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeAfter, &total));
    memGetInfoBytes_ = static_cast<double>(freeBefore) - static_cast<double>(freeAfter);
    // Pinned host memory, after the measurement: it is not device memory.
    batches_ = std::make_unique<PinnedBatchQueue>(data, b * d);
}

CudaCruncherTrainer::Tensor CudaCruncherTrainer::allocate(MemoryTag tag, std::size_t count) {
    buffers_.emplace_back(count * sizeof(float));
    NAPKIN_CUDA_CHECK(cudaMemsetAsync(buffers_.back().get(), 0, count * sizeof(float), ctx_->stream.get()));
    ledger_.recordExternal(tag, 4.0 * static_cast<double>(count));
    return {buffers_.back().as<float>(), count};
}

void CudaCruncherTrainer::upload(Tensor t, const std::vector<float>& host) {
    NAPKIN_CUDA_CHECK(cudaMemcpyAsync(t.data, host.data(), t.count * sizeof(float), cudaMemcpyHostToDevice,
                                      ctx_->stream.get()));
    ctx_->stream.synchronize(); // `host` may be a temporary
}

std::vector<float> CudaCruncherTrainer::download(Tensor t) const {
    std::vector<float> host(t.count);
    if (t.count > 0) {
        NAPKIN_CUDA_CHECK(cudaMemcpyAsync(host.data(), t.data, t.count * sizeof(float),
                                          cudaMemcpyDeviceToHost, ctx_->stream.get()));
        ctx_->stream.synchronize();
    }
    return host;
}

// C (m×n) = op(A)·op(B) with every matrix row-major, as the CPU trainer writes them. cuBLAS is
// column-major, where a row-major matrix reads as its transpose: so compute Cᵀ = op(B)ᵀ·op(A)ᵀ.
void CudaCruncherTrainer::gemm(bool transA, bool transB, long m, long n, long k, const float* a,
                               const float* b, float* c) {
    const float one = 1, zero = 0;
    NAPKIN_CUBLAS_CHECK(cublasSgemm(ctx_->blas.get(), transB ? CUBLAS_OP_T : CUBLAS_OP_N,
                                    transA ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(n),
                                    static_cast<int>(m), static_cast<int>(k), &one, b,
                                    static_cast<int>(transB ? k : n), a, static_cast<int>(transA ? m : k),
                                    &zero, c, static_cast<int>(n)));
}

double CudaCruncherTrainer::step() {
    const long B = config_.batch, D = config_.dim, L = config_.layers;
    const cudaStream_t s = ctx_->stream.get();
    // This step's batch was drawn on a host thread during the last step (the first is drawn here); the
    // next one is drawn while the GPU runs this step, into the other pinned buffer.
    const float* hostBatch = batches_->take();
    // The first step of this trainer: what the driver allocates on its own (cuBLAS's workspace, kernels
    // loaded on first use) shows as a drop in free memory across it.
    std::size_t freeBeforeStep = 0, total = 0;
    if (!firstStepMeasured_)
        NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeBeforeStep, &total));
    stepStart_.record(s);
    NAPKIN_CUDA_CHECK(
        cudaMemcpyAsync(batch_.data, hostBatch, batch_.count * sizeof(float), cudaMemcpyHostToDevice, s));
    batchCopied_.record(s);
    gemm(false, false, B, 1, D, batch_.data, truth_.data, targets_.data); // t = X·w*
    // Forward: h_l = h_{l−1}·W_l, y = h_L·w.
    for (long l = 0; l < L; ++l) {
        const float* in = l == 0 ? batch_.data : outputs_[static_cast<std::size_t>(l - 1)].data;
        gemm(false, false, B, D, D, in, weights_[static_cast<std::size_t>(l)].data,
             outputs_[static_cast<std::size_t>(l)].data);
    }
    const float* last = outputs_.back().data;
    gemm(false, false, B, 1, D, last, head_.data, prediction_.data);
    NAPKIN_CUDA_CHECK(cudaMemsetAsync(lossSum_.get(), 0, sizeof(double), s));
    mseLossAndGradient(prediction_.data, targets_.data, lossGrad_.data, lossSum_.as<double>(), B, s);
    // Backward: dw = h_Lᵀ·dy; dh_L = dy·wᵀ; dW_l = h_{l−1}ᵀ·dh_l; dh_{l−1} = dh_l·W_lᵀ (not for l = 1).
    gemm(true, false, D, 1, B, last, lossGrad_.data, headGrad_.data);
    gemm(false, false, B, D, 1, lossGrad_.data, head_.data, upstream_.data);
    for (long l = L - 1; l >= 0; --l) {
        const auto li = static_cast<std::size_t>(l);
        const float* in = l == 0 ? batch_.data : outputs_[li - 1].data;
        gemm(true, false, D, D, B, in, upstream_.data, weightGrads_[li].data);
        if (l > 0) {
            gemm(false, true, B, D, D, upstream_.data, weights_[li].data, downstream_.data);
            std::swap(upstream_, downstream_);
        }
    }
    ++steps_;
    const OptimizerArgs args = optimizerArgsFor(config_, steps_);
    for (std::size_t l = 0; l < weights_.size(); ++l)
        optimizerStep(args, weights_[l].data, weightGrads_[l].data, state1_[l].data, state2_[l].data,
                      weights_[l].count, s);
    optimizerStep(args, head_.data, headGrad_.data, headState1_.data, headState2_.data, head_.count, s);
    stepDone_.record(s);
    double lossSum = 0;
    NAPKIN_CUDA_CHECK(cudaMemcpyAsync(&lossSum, lossSum_.get(), sizeof lossSum, cudaMemcpyDeviceToHost, s));
    // The whole step is queued: the next batch is drawn on a host thread while the GPU runs it (started
    // only now, so that the thread's start-up leaves no gap in the device's timed span).
    batches_->prefetch();
    ctx_->stream.synchronize(); // the step is complete when it returns (the benchmark times whole steps)
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
    t.deviceSeconds = stepDone_.secondsSince(batchCopied_);
    t.copySeconds = batchCopied_.secondsSince(stepStart_);
    t.hostWaitSeconds = batches_->lastTakeSeconds();
    t.hostDrawSeconds = batches_->lastDrawSeconds();
    timing_ = t;
    return lossSum / static_cast<double>(B);
}

std::vector<CudaCruncherTrainer::Tensor> CudaCruncherTrainer::checkpointTensors() const {
    std::vector<Tensor> all;
    for (std::size_t l = 0; l < weights_.size(); ++l)
        all.insert(all.end(), {weights_[l], state1_[l], state2_[l]});
    all.insert(all.end(), {head_, headState1_, headState2_});
    return all;
}

std::vector<float> CudaCruncherTrainer::parameters() const {
    std::vector<float> all;
    for (const Tensor& w : weights_) {
        const std::vector<float> host = download(w);
        all.insert(all.end(), host.begin(), host.end());
    }
    const std::vector<float> head = download(head_);
    all.insert(all.end(), head.begin(), head.end());
    return all;
}

// The format and every check are engine/compute/cruncher_checkpoint.h's, shared with the CPU trainer.
void CudaCruncherTrainer::saveCheckpoint(const std::string& path) const {
    CruncherCheckpoint checkpoint;
    checkpoint.step = steps_;
    for (const Tensor& t : checkpointTensors())
        checkpoint.tensors.push_back(download(t));
    checkpoint.dataGenerator = batches_->engineAtTake(); // as if the next batch were not drawn yet
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
    batches_->restart(checkpoint.dataGenerator);
    steps_ = checkpoint.step;
}

} // namespace napkin::cuda

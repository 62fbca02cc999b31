#include "engine/compute/cuda/cuda_cruncher_trainer.h"

#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/cuda_kernels.h"
#include "engine/compute/cuda/cuda_matmul_problem.h"
#include "engine/compute/cuda/cuda_optimizer_args.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace napkin::cuda {
namespace {

constexpr char kMagic[8] = {'N', 'A', 'P', 'K', 'C', 'R', 'U', '1'}; // the CPU trainer's format

} // namespace

CudaCruncherTrainer::CudaCruncherTrainer(std::shared_ptr<CudaContext> context, const CruncherConfig& config)
    : ctx_(std::move(context))
    , config_(config)
    , data_(config.seedData) {
    if (config.dim <= 0 || config.layers <= 0 || config.batch <= 0)
        throw std::invalid_argument("the Cruncher needs dim, layers and batch > 0");
    const auto d = static_cast<std::size_t>(config.dim), b = static_cast<std::size_t>(config.batch);
    const int states = stateTensorsPerParameter(config.optimizer);
    std::size_t freeBefore = 0, freeAfter = 0, total = 0;
    NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeBefore, &total));
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
    for (long l = 0; l < config.layers; ++l) {
        weights_.push_back(allocate(MemoryTag::parameters, d * d));
        upload(weights_.back(), draw(d * d));
        weightGrads_.push_back(allocate(MemoryTag::gradients, d * d));
        state1_.push_back(stateOf(0, d * d));
        state2_.push_back(stateOf(1, d * d));
        outputs_.push_back(allocate(MemoryTag::activations, b * d));
    }
    head_ = allocate(MemoryTag::parameters, d);
    upload(head_, draw(d));
    headGrad_ = allocate(MemoryTag::gradients, d);
    headState1_ = stateOf(0, d);
    headState2_ = stateOf(1, d);
    batch_ = allocate(MemoryTag::inputs, b * d);
    targets_ = allocate(MemoryTag::inputs, b);
    truth_ = allocate(MemoryTag::inputs, d);
    std::vector<float> truth(d);
    for (float& w : truth)
        w = static_cast<float>(data_.next() * scale);
    upload(truth_, truth);
    prediction_ = allocate(MemoryTag::workspace, b);
    lossGrad_ = allocate(MemoryTag::workspace, b);
    upstream_ = allocate(MemoryTag::workspace, b * d);
    downstream_ = allocate(MemoryTag::workspace, b * d);
    lossSum_ = DeviceBuffer(sizeof(double));
    hostBatch_.resize(b * d);
    ctx_->stream.synchronize();
    NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeAfter, &total));
    memGetInfoBytes_ = static_cast<double>(freeBefore) - static_cast<double>(freeAfter);
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
    for (float& x : hostBatch_)
        x = static_cast<float>(data_.next());
    NAPKIN_CUDA_CHECK(cudaMemcpyAsync(batch_.data, hostBatch_.data(), hostBatch_.size() * sizeof(float),
                                      cudaMemcpyHostToDevice, s));
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
    double lossSum = 0;
    NAPKIN_CUDA_CHECK(cudaMemcpyAsync(&lossSum, lossSum_.get(), sizeof lossSum, cudaMemcpyDeviceToHost, s));
    ctx_->stream.synchronize(); // the step is complete when it returns (the benchmark times whole steps)
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

// The CPU trainer's checkpoint format, byte for byte, so a run can move between backends.
void CudaCruncherTrainer::saveCheckpoint(const std::string& path) const {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error("cannot write checkpoint " + tmp);
        out.write(kMagic, sizeof kMagic);
        for (std::int64_t v :
             {std::int64_t{config_.dim}, std::int64_t{config_.layers}, std::int64_t{config_.batch},
              static_cast<std::int64_t>(config_.optimizer), std::int64_t{steps_}})
            out.write(reinterpret_cast<const char*>(&v), sizeof v);
        for (const Tensor& t : checkpointTensors()) {
            const std::vector<float> host = download(t);
            out.write(reinterpret_cast<const char*>(host.data()),
                      static_cast<std::streamsize>(host.size() * sizeof(float)));
        }
        std::ostringstream rng;
        rng << data_.engine();
        const std::string text = rng.str();
        const auto length = static_cast<std::int64_t>(text.size());
        out.write(reinterpret_cast<const char*>(&length), sizeof length);
        out.write(text.data(), length);
        if (!out.flush())
            throw std::runtime_error("cannot write checkpoint " + tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot rename " + tmp + " to " + path);
}

void CudaCruncherTrainer::loadCheckpoint(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read checkpoint " + path);
    char magic[sizeof kMagic] = {};
    in.read(magic, sizeof magic);
    if (!in || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
        throw std::runtime_error(path + " is not a napkin Cruncher checkpoint");
    std::int64_t header[5] = {};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    if (!in || header[0] != config_.dim || header[1] != config_.layers || header[2] != config_.batch ||
        header[3] != static_cast<std::int64_t>(config_.optimizer))
        throw std::runtime_error(path + " was saved for another Cruncher configuration");
    std::vector<std::vector<float>> values; // read everything before touching the device tensors
    for (const Tensor& t : checkpointTensors()) {
        values.emplace_back(t.count);
        in.read(reinterpret_cast<char*>(values.back().data()),
                static_cast<std::streamsize>(t.count * sizeof(float)));
    }
    std::int64_t length = 0;
    in.read(reinterpret_cast<char*>(&length), sizeof length);
    if (!in || length <= 0 || length > (1 << 20))
        throw std::runtime_error(path + " is truncated");
    std::string text(static_cast<std::size_t>(length), '\0');
    in.read(text.data(), length);
    std::istringstream rngText(text);
    std::mt19937_64 engine;
    rngText >> engine;
    if (!in || !rngText)
        throw std::runtime_error(path + " is truncated");
    const std::vector<Tensor> tensors = checkpointTensors();
    for (std::size_t i = 0; i < tensors.size(); ++i)
        if (tensors[i].count > 0)
            upload(tensors[i], values[i]);
    data_.engine() = engine;
    steps_ = header[4];
}

} // namespace napkin::cuda

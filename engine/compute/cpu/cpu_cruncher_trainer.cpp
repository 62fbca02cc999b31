#include "engine/compute/cpu/cpu_cruncher_trainer.h"

#include "engine/compute/cpu/optimizer_step.h"
#include "engine/compute/cruncher_checkpoint.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace napkin {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixMap = Eigen::Map<RowMatrix>;
using ConstMatrixMap = Eigen::Map<const RowMatrix>;

MatrixMap asMatrix(AccountedBuffer& b, long rows, long cols) {
    return {b.data(), rows, cols};
}
ConstMatrixMap asMatrix(const AccountedBuffer& b, long rows, long cols) {
    return {b.data(), rows, cols};
}

} // namespace

CpuCruncherTrainer::CpuCruncherTrainer(const CruncherConfig& config)
    : config_(config)
    , data_(config.seedData) {
    if (config.dim <= 0 || config.layers <= 0 || config.batch <= 0)
        throw std::invalid_argument("the Cruncher needs dim, layers and batch > 0");
    const auto d = static_cast<std::size_t>(config.dim), b = static_cast<std::size_t>(config.batch);
    const int states = stateTensorsPerParameter(config.optimizer);
    auto stateOf = [&](int which, std::size_t n) {
        return states > which ? ledger_.allocateFloats(MemoryTag::optimizerState, n) : AccountedBuffer();
    };
    GaussianSource init(config.seedInit);
    const double scale = 1.0 / std::sqrt(static_cast<double>(config.dim)); // N(0,1)/√fan_in, fan_in = D
    for (long l = 0; l < config.layers; ++l) {
        weights_.push_back(ledger_.allocateFloats(MemoryTag::parameters, d * d));
        for (float& w : weights_.back().span())
            w = static_cast<float>(init.next() * scale);
        weightGrads_.push_back(ledger_.allocateFloats(MemoryTag::gradients, d * d));
        state1_.push_back(stateOf(0, d * d));
        state2_.push_back(stateOf(1, d * d));
        outputs_.push_back(ledger_.allocateFloats(MemoryTag::activations, b * d));
    }
    head_ = ledger_.allocateFloats(MemoryTag::parameters, d);
    for (float& w : head_.span())
        w = static_cast<float>(init.next() * scale);
    headGrad_ = ledger_.allocateFloats(MemoryTag::gradients, d);
    headState1_ = stateOf(0, d);
    headState2_ = stateOf(1, d);
    batch_ = ledger_.allocateFloats(MemoryTag::inputs, b * d);
    targets_ = ledger_.allocateFloats(MemoryTag::inputs, b);
    truth_ = ledger_.allocateFloats(MemoryTag::inputs, d);
    for (float& w :
         truth_.span()) // the fixed random linear function t = x·w*, drawn first from the data seed
        w = static_cast<float>(data_.next() * scale);
    prediction_ = ledger_.allocateFloats(MemoryTag::workspace, b);
    lossGrad_ = ledger_.allocateFloats(MemoryTag::workspace, b);
    upstream_ = ledger_.allocateFloats(MemoryTag::workspace, b * d);
    downstream_ = ledger_.allocateFloats(MemoryTag::workspace, b * d);
}

void CpuCruncherTrainer::drawBatch() {
    for (float& x : batch_.span())
        x = static_cast<float>(data_.next());
    const long B = config_.batch, D = config_.dim;
    Eigen::Map<Eigen::VectorXf>(targets_.data(), B).noalias() =
        asMatrix(std::as_const(batch_), B, D) * Eigen::Map<const Eigen::VectorXf>(truth_.data(), D);
}

double CpuCruncherTrainer::step() {
    const long B = config_.batch, D = config_.dim, L = config_.layers;
    drawBatch();
    // Forward: h_0 = X, h_l = h_{l−1}·W_l (B×D·D×D), y = h_L·w (B×D·D×1).
    for (long l = 0; l < L; ++l) {
        const AccountedBuffer& in = l == 0 ? batch_ : outputs_[static_cast<std::size_t>(l - 1)];
        asMatrix(outputs_[static_cast<std::size_t>(l)], B, D).noalias() =
            asMatrix(in, B, D) * asMatrix(std::as_const(weights_[static_cast<std::size_t>(l)]), D, D);
    }
    const ConstMatrixMap last = asMatrix(std::as_const(outputs_.back()), B, D);
    Eigen::Map<Eigen::VectorXf> y(prediction_.data(), B), dy(lossGrad_.data(), B);
    const Eigen::Map<const Eigen::VectorXf> t(targets_.data(), B);
    y.noalias() = last * Eigen::Map<const Eigen::VectorXf>(head_.data(), D);
    // MSE loss = mean((y − t)²), summed in double; dL/dy = 2·(y − t)/B.
    double loss = 0;
    for (long i = 0; i < B; ++i) {
        const double r = static_cast<double>(y[i]) - t[i];
        loss += r * r;
        dy[i] = static_cast<float>(2.0 * r / static_cast<double>(B));
    }
    loss /= static_cast<double>(B);
    // Backward: dw = h_Lᵀ·dy (D×B·B×1); dh_L = dy·wᵀ (B×1·1×D);
    // for l = L..1: dW_l = h_{l−1}ᵀ·dh_l (D×B·B×D); dh_{l−1} = dh_l·W_lᵀ (B×D·D×D), skipped for l = 1.
    Eigen::Map<Eigen::VectorXf>(headGrad_.data(), D).noalias() = last.transpose() * dy;
    asMatrix(upstream_, B, D).noalias() = dy * Eigen::Map<const Eigen::RowVectorXf>(head_.data(), D);
    for (long l = L - 1; l >= 0; --l) {
        const auto li = static_cast<std::size_t>(l);
        const AccountedBuffer& in = l == 0 ? batch_ : outputs_[li - 1];
        asMatrix(weightGrads_[li], D, D).noalias() =
            asMatrix(in, B, D).transpose() * asMatrix(std::as_const(upstream_), B, D);
        if (l > 0) {
            asMatrix(downstream_, B, D).noalias() = asMatrix(std::as_const(upstream_), B, D) *
                                                    asMatrix(std::as_const(weights_[li]), D, D).transpose();
            std::swap(upstream_, downstream_);
        }
    }
    ++steps_;
    for (std::size_t l = 0; l < weights_.size(); ++l)
        applyOptimizerStep(config_.optimizer, config_.hyper, steps_, weights_[l].span(),
                           weightGrads_[l].span(), state1_[l].span(), state2_[l].span());
    applyOptimizerStep(config_.optimizer, config_.hyper, steps_, head_.span(), headGrad_.span(),
                       headState1_.span(), headState2_.span());
    return loss;
}

std::vector<AccountedBuffer*> CpuCruncherTrainer::parameterTensors() {
    std::vector<AccountedBuffer*> all;
    for (std::size_t l = 0; l < weights_.size(); ++l)
        all.insert(all.end(), {&weights_[l], &state1_[l], &state2_[l]});
    all.insert(all.end(), {&head_, &headState1_, &headState2_});
    return all;
}

std::vector<const AccountedBuffer*> CpuCruncherTrainer::parameterTensors() const {
    auto mutableSelf = const_cast<CpuCruncherTrainer*>(this)->parameterTensors();
    return {mutableSelf.begin(), mutableSelf.end()};
}

std::vector<float> CpuCruncherTrainer::parameters() const {
    std::vector<float> all;
    for (const AccountedBuffer& w : weights_)
        all.insert(all.end(), w.data(), w.data() + w.size());
    all.insert(all.end(), head_.data(), head_.data() + head_.size());
    return all;
}

// The format and every check are engine/compute/cruncher_checkpoint.h's, shared with the CUDA trainer.
void CpuCruncherTrainer::saveCheckpoint(const std::string& path) const {
    CruncherCheckpoint checkpoint;
    checkpoint.step = steps_;
    for (const AccountedBuffer* b : parameterTensors())
        checkpoint.tensors.emplace_back(b->data(), b->data() + b->size());
    checkpoint.dataGenerator = data_.engine();
    saveCruncherCheckpoint(path, config_, checkpoint);
}

void CpuCruncherTrainer::loadCheckpoint(const std::string& path) {
    std::vector<std::size_t> sizes;
    for (const AccountedBuffer* b : parameterTensors())
        sizes.push_back(b->size());
    // Loaded and checked whole before any weight changes: a bad file leaves the trainer as it was.
    const CruncherCheckpoint checkpoint = loadCruncherCheckpoint(path, config_, sizes);
    const std::vector<AccountedBuffer*> tensors = parameterTensors();
    for (std::size_t i = 0; i < tensors.size(); ++i)
        std::copy(checkpoint.tensors[i].begin(), checkpoint.tensors[i].end(), tensors[i]->data());
    data_.engine() = checkpoint.dataGenerator;
    steps_ = checkpoint.step;
}

} // namespace napkin

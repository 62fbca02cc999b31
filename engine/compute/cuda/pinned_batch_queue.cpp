#include "engine/compute/cuda/pinned_batch_queue.h"

#include <chrono>

namespace napkin::cuda {

using Clock = std::chrono::steady_clock;

PinnedBatchQueue::PinnedBatchQueue(const GaussianSource& source, std::size_t count)
    : source_(source)
    , count_(count)
    , buffers_{PinnedHostBuffer(count * sizeof(float)), PinnedHostBuffer(count * sizeof(float))} {}

PinnedBatchQueue::~PinnedBatchQueue() {
    if (inFlight_.valid())
        inFlight_.wait();
}

void PinnedBatchQueue::draw(float* into, double* seconds) {
    const auto start = Clock::now();
    for (std::size_t i = 0; i < count_; ++i)
        into[i] = static_cast<float>(source_.next());
    *seconds = std::chrono::duration<double>(Clock::now() - start).count();
}

const float* PinnedBatchQueue::take() {
    const auto start = Clock::now();
    auto* batch = static_cast<float*>(buffers_[next_].get());
    if (prefetched_) {
        inFlight_.get(); // rethrows what the thread threw (nothing expected: it only draws numbers)
        drawSeconds_ = prefetchDrawSeconds_;
    } else {
        draw(batch, &drawSeconds_);
    }
    prefetched_ = false;
    next_ = 1 - next_;
    takeSeconds_ = std::chrono::duration<double>(Clock::now() - start).count();
    return batch;
}

void PinnedBatchQueue::prefetch() {
    if (prefetched_)
        return;
    engineAtTake_ = source_.engine(); // before the thread touches it
    auto* into = static_cast<float*>(buffers_[next_].get());
    inFlight_ = std::async(std::launch::async, [this, into] { draw(into, &prefetchDrawSeconds_); });
    prefetched_ = true;
}

std::mt19937_64 PinnedBatchQueue::engineAtTake() const {
    return prefetched_ ? engineAtTake_ : source_.engine();
}

void PinnedBatchQueue::restart(const std::mt19937_64& engine) {
    if (inFlight_.valid())
        inFlight_.get();
    prefetched_ = false;
    source_.engine() = engine;
}

} // namespace napkin::cuda

#pragma once
// The CUDA trainer's input batches, drawn on a host thread into a pinned double buffer while the GPU runs
// the step before: the same N(0, 1) values, in the same order, as the CPU trainer draws inside its step
// (engine/numerics/gaussian_source.h), so both backends still see identical data. At D = B = 4096 the
// draw (B·D Box–Muller samples) takes longer than the step's GEMMs; drawn inside the timed step and
// copied from pageable memory, it hid the GPU behind the host.
#include "engine/compute/cuda/cuda_handles.h"
#include "engine/numerics/gaussian_source.h"

#include <cstddef>
#include <future>
#include <random>

namespace napkin::cuda {

class PinnedBatchQueue {
public:
    /// Two pinned buffers of `count` floats; batches come from a copy of `source`, which the queue owns.
    PinnedBatchQueue(const GaussianSource& source, std::size_t count);
    PinnedBatchQueue(const PinnedBatchQueue&) = delete;
    PinnedBatchQueue& operator=(const PinnedBatchQueue&) = delete;
    ~PinnedBatchQueue(); ///< waits for a draw in flight (it writes into this queue's buffers)

    /// This step's batch: the prefetched one (waiting for its thread if it is still drawing), or drawn now
    /// on the calling thread when none is (the first step, after restart()). Valid until the second
    /// prefetch() after this call.
    const float* take();
    /// Starts drawing the next batch on a host thread, into the buffer take() did not return.
    void prefetch();
    /// Seconds the last take() kept the calling thread (waiting for, or doing, the draw).
    double lastTakeSeconds() const { return takeSeconds_; }
    /// Seconds the last batch's draw took on whichever thread drew it.
    double lastDrawSeconds() const { return drawSeconds_; }

    /// The generator as if no batch were prefetched: the state after the batches taken (a checkpoint's).
    std::mt19937_64 engineAtTake() const;
    /// Drops a prefetched batch and continues from `engine` (a checkpoint's state).
    void restart(const std::mt19937_64& engine);

private:
    void draw(float* into, double* seconds);

    GaussianSource source_;
    std::size_t count_;
    PinnedHostBuffer buffers_[2];
    int next_ = 0;                   ///< the buffer the next take() returns
    bool prefetched_ = false;        ///< a draw into buffers_[next_] was started
    std::mt19937_64 engineAtTake_{}; ///< source_'s state before the prefetched batch
    double takeSeconds_ = 0, drawSeconds_ = 0, prefetchDrawSeconds_ = 0;
    std::future<void> inFlight_; // last: destroyed (waited for) before the buffers it writes into
};

} // namespace napkin::cuda

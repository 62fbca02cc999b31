// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run of a training step's allocations and frees in the order PyTorch makes them, reduced to what the
// memory timeline needs of it: how each component has changed at the run's high-water mark and at its end.
// pytorch_eager_step_ops.h writes a step's runs; TimelineBuilder::run() plays them onto the bytes held.
#include <cstddef>

namespace napkin {

/// What an allocation counts to: a tensor autograd saves, a temporary (a gradient of an activation, a
/// forward intermediate, the loss's tensors), or a parameter's gradient.
enum class HeldComponent { activations, temporary, gradients };

/// A change of what a step holds: activations and temporaries in bytes, gradients as a count of parameters
/// (the timeline turns them into bytes as model_state_memory.h does, so its totals stay those of the sum).
struct HeldChange {
    double activations = 0, temporary = 0, gradientParameters = 0;
    bool operator==(const HeldChange&) const = default;
};

class OpRun {
public:
    /// `gradientBytesPerParameter`: the bytes of one parameter's gradient, which weigh the gradients against
    /// the other components when the run looks for its high-water mark.
    explicit OpRun(double gradientBytesPerParameter)
        : gradientBytesPerParameter_(gradientBytesPerParameter) {}

    /// `amount` more bytes of activations or temporaries, or gradients of `amount` more parameters.
    void allocate(HeldComponent component, double amount);
    /// `amount` bytes (parameters) of `component` freed.
    void free(HeldComponent component, double amount) { change(component, -amount); }
    /// `run` played `times` times over (a whole number), as if each of its allocations and frees were
    /// recorded here again, in the work of one: its high-water mark in the j-th play is linear in j, so the
    /// largest is the first play's or the last's.
    void repeat(const OpRun& run, double times);
    double gradientBytesPerParameter() const { return gradientBytesPerParameter_; }

    /// The change at the run's first largest total; zero where nothing rises above the run's start.
    const HeldChange& peak() const { return peak_; }
    const HeldChange& end() const { return now_; }
    /// The total change at the high-water mark, in bytes (never negative).
    double peakBytes() const { return peakBytes_; }
    /// Allocations and frees recorded: the work of building the run, which does not grow with the model.
    std::size_t steps() const { return steps_; }

private:
    void change(HeldComponent component, double amount);
    double bytes(const HeldChange& c) const {
        return c.activations + c.temporary + c.gradientParameters * gradientBytesPerParameter_;
    }

    double gradientBytesPerParameter_;
    HeldChange now_, peak_;
    double peakBytes_ = 0;
    std::size_t steps_ = 0;
};

} // namespace napkin

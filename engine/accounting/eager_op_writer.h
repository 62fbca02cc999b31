// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the op-by-op step's runs are written (pytorch_eager_step_ops.cpp for GPT-2, pytorch_eager_llama_ops.cpp
// for Llama-style blocks): each allocation and free in PyTorch's order, by what it counts to.
#include "engine/accounting/op_run.h"

namespace napkin::eager {

/// Writes one run: `keep` a tensor autograd saves, `temp` one nothing saves, `grad` a parameter's gradient
/// (counted in parameters); `release` and `drop` free them.
class OpWriter {
public:
    explicit OpWriter(OpRun& run)
        : run_(run) {}
    void keep(double bytes) { run_.allocate(HeldComponent::activations, bytes); }
    void temp(double bytes) { run_.allocate(HeldComponent::temporary, bytes); }
    void grad(double parameters) { run_.allocate(HeldComponent::gradients, parameters); }
    void release(double bytes) { run_.free(HeldComponent::activations, bytes); }
    void drop(double bytes) { run_.free(HeldComponent::temporary, bytes); }
    /// Two gradients of one tensor summed (input_buffer.cpp, torch 1.13: out of place): a new tensor, both
    /// operands freed.
    void accumulate(double bytes) {
        temp(bytes);
        drop(bytes);
        drop(bytes);
    }
    /// An empty run to write a repeated piece into, and that piece played `times` times (OpRun::repeat).
    OpRun piece() const { return OpRun(run_.gradientBytesPerParameter()); }
    void repeat(const OpRun& piece, double times) { run_.repeat(piece, times); }

private:
    OpRun& run_;
};

/// SwiGLU's backward below the down projection (whose dW and dX the caller wrote), as torch 1.13 runs it
/// for a dense Llama MLP and for each Mixtral expert alike: the SiLU · up product released, MulBackward's
/// dL/dSiLU and dL/dup, up's dW and dX, SiluBackward, the gate's dW and dX. `nf` and `nh` are the bytes of
/// the block's n·f and n·h tensors, `fh` its f·h weights; the block's input is left to the caller.
inline void swigluBackwardBelowDown(OpWriter& w, double nf, double nh, double fh) {
    w.release(nf); // SiLU · up
    w.temp(nf);    // MulBackward: dL/dSiLU, dL/dup
    w.temp(nf);
    w.drop(nf);
    w.release(nf); // SiLU's output
    w.release(nf); // up's output
    w.grad(fh);    // up projection
    w.temp(nh);
    w.drop(nf);
    w.temp(nf); // SiluBackward
    w.drop(nf);
    w.release(nf); // the gate's output
    w.grad(fh);    // gate projection
    w.temp(nh);
    w.drop(nf);
}

} // namespace napkin::eager

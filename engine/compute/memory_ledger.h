// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An accounting allocator: every training buffer is allocated through a ledger under a tag, so the
// bytes a backend really holds can be compared with the napkin formula (engine/accounting.h).
#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

namespace napkin {

enum class MemoryTag {
    parameters,     ///< weights
    gradients,      ///< one gradient per weight
    optimizerState, ///< momentum, AdaGrad's Σg², Adam's m and v
    activations,    ///< layer outputs kept for the backward pass (the lecture's B·D·L)
    inputs,         ///< the input batch and targets (data, not counted by the lecture)
    workspace,      ///< head output, loss gradient, backward temporaries (not counted by the lecture)
    masterWeights,  ///< the fp32 copy a mixed-precision trainer updates (its 16-bit weights are `parameters`)
    scratch ///< an implementation's own buffers no formula predicts (oneDNN's scratchpad, a widening chunk)
};
constexpr std::size_t kMemoryTagCount = 8;
std::string_view memoryTagName(MemoryTag tag); ///< "parameters", "gradients", "optimizer_state", ...

class MemoryLedger;

/// A float buffer owned by a ledger entry; move-only; gives its bytes back to the ledger when destroyed.
class AccountedBuffer {
public:
    AccountedBuffer() = default;
    AccountedBuffer(AccountedBuffer&& other) noexcept;
    AccountedBuffer& operator=(AccountedBuffer&& other) noexcept;
    AccountedBuffer(const AccountedBuffer&) = delete;
    AccountedBuffer& operator=(const AccountedBuffer&) = delete;
    ~AccountedBuffer();

    float* data() { return data_.get(); }
    const float* data() const { return data_.get(); }
    std::size_t size() const { return size_; }
    std::span<float> span() { return {data_.get(), size_}; }
    std::span<const float> span() const { return {data_.get(), size_}; }

private:
    friend class MemoryLedger;
    void release();
    std::unique_ptr<float[]> data_;
    std::size_t size_ = 0;
    MemoryTag tag_ = MemoryTag::workspace;
    MemoryLedger* ledger_ = nullptr;
};

/// Current and peak bytes per tag. Not thread-safe: one ledger per trainer. Must outlive its buffers.
class MemoryLedger {
public:
    /// A zero-filled buffer of `count` floats charged to `tag` (4·count bytes).
    AccountedBuffer allocateFloats(MemoryTag tag, std::size_t count);
    /// As allocateFloats, left uninitialised: for a buffer the caller writes whole before reading it
    /// (a trainer allocating its activations and gradients every step need not clear them first).
    AccountedBuffer allocateFloatsForOverwrite(MemoryTag tag, std::size_t count);
    /// Records `bytes` held outside this ledger's own allocator (a GPU backend's device buffers) under
    /// `tag`; negative gives them back.
    void recordExternal(MemoryTag tag, double bytes) { give(tag, bytes); }
    double currentBytes(MemoryTag tag) const { return current_[index(tag)]; }
    double peakBytes(MemoryTag tag) const { return peak_[index(tag)]; }
    /// Sum of current bytes over parameters, gradients, master weights, optimizer state and activations
    /// (what the lecture's formula counts; master weights are 0 outside mixed precision).
    double countedBytes() const;
    /// Sum of current bytes over every tag.
    double totalBytes() const;
    /// Sum of current bytes over every tag but inputs and scratch: what a memory timeline counts
    /// (engine/compute/memory_timeline_recorder.h), the data batch and the implementation's scratch being
    /// left out as the formula leaves them out.
    double stepBytes() const { return step_; }
    /// The largest stepBytes() and totalBytes() have been, whenever that was (not only at recorded events).
    double peakStepBytes() const { return peakStep_; }
    double peakTotalBytes() const { return peakTotal_; }

private:
    friend class AccountedBuffer;
    static std::size_t index(MemoryTag tag) { return static_cast<std::size_t>(tag); }
    AccountedBuffer charge(MemoryTag tag, std::unique_ptr<float[]> data, std::size_t count);
    void give(MemoryTag tag, double bytes);
    std::array<double, kMemoryTagCount> current_{}, peak_{};
    double step_ = 0, total_ = 0, peakStep_ = 0, peakTotal_ = 0;
};

} // namespace napkin

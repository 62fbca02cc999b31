// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A bf16 buffer charged to a MemoryLedger tag at 2 bytes per value: the 16-bit weights, gradients and
// activations of a mixed-precision trainer, counted by the same ledger as its fp32 buffers.
#include "engine/compute/memory_ledger.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace napkin {

/// Move-only; zero-filled; gives its bytes back to the ledger when destroyed (the ledger must outlive it).
/// Values are bf16 bit patterns (the upper half of an IEEE fp32), converted by
/// engine/compute/cpu/bf16_bits.h.
class AccountedBf16Buffer {
public:
    AccountedBf16Buffer() = default;
    /// `count` values charged to `tag` (2·count bytes, through MemoryLedger::recordExternal).
    AccountedBf16Buffer(MemoryLedger& ledger, MemoryTag tag, std::size_t count);
    AccountedBf16Buffer(AccountedBf16Buffer&& other) noexcept;
    AccountedBf16Buffer& operator=(AccountedBf16Buffer&& other) noexcept;
    AccountedBf16Buffer(const AccountedBf16Buffer&) = delete;
    AccountedBf16Buffer& operator=(const AccountedBf16Buffer&) = delete;
    ~AccountedBf16Buffer();

    std::uint16_t* data() { return data_.get(); }
    const std::uint16_t* data() const { return data_.get(); }
    std::size_t size() const { return size_; }
    std::span<std::uint16_t> span() { return {data_.get(), size_}; }
    std::span<const std::uint16_t> span() const { return {data_.get(), size_}; }

private:
    void release();
    std::unique_ptr<std::uint16_t[]> data_;
    std::size_t size_ = 0;
    MemoryTag tag_ = MemoryTag::workspace;
    MemoryLedger* ledger_ = nullptr;
};

} // namespace napkin

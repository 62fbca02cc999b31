// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/accounted_bf16_buffer.h"

#include <utility>

namespace napkin {

AccountedBf16Buffer::AccountedBf16Buffer(MemoryLedger& ledger, MemoryTag tag, std::size_t count)
    : data_(std::make_unique<std::uint16_t[]>(count)) // value-initialised: +0.0
    , size_(count)
    , tag_(tag)
    , ledger_(&ledger) {
    ledger.recordExternal(tag, 2.0 * static_cast<double>(count));
}

AccountedBf16Buffer::AccountedBf16Buffer(AccountedBf16Buffer&& other) noexcept
    : data_(std::move(other.data_))
    , size_(std::exchange(other.size_, 0))
    , tag_(other.tag_)
    , ledger_(std::exchange(other.ledger_, nullptr)) {}

AccountedBf16Buffer& AccountedBf16Buffer::operator=(AccountedBf16Buffer&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::move(other.data_);
        size_ = std::exchange(other.size_, 0);
        tag_ = other.tag_;
        ledger_ = std::exchange(other.ledger_, nullptr);
    }
    return *this;
}

AccountedBf16Buffer::~AccountedBf16Buffer() {
    release();
}

void AccountedBf16Buffer::release() {
    if (ledger_)
        ledger_->recordExternal(tag_, -2.0 * static_cast<double>(size_));
    data_.reset();
    size_ = 0;
    ledger_ = nullptr;
}

} // namespace napkin

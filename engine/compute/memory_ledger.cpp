// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/memory_ledger.h"

#include "engine/text/name_table.h"

#include <algorithm>
#include <utility>

namespace napkin {
namespace {
constexpr NameTable<MemoryTag, kMemoryTagCount> kMemoryTagNames{
    {{MemoryTag::parameters, "parameters"},
     {MemoryTag::gradients, "gradients"},
     {MemoryTag::optimizerState, "optimizer_state"},
     {MemoryTag::activations, "activations"},
     {MemoryTag::inputs, "inputs"},
     {MemoryTag::workspace, "workspace"},
     {MemoryTag::masterWeights, "master_weights"},
     {MemoryTag::scratch, "scratch"}}};
} // namespace

std::string_view memoryTagName(MemoryTag tag) {
    return nameIn(kMemoryTagNames, tag);
}

AccountedBuffer::AccountedBuffer(AccountedBuffer&& other) noexcept
    : data_(std::move(other.data_))
    , size_(std::exchange(other.size_, 0))
    , tag_(other.tag_)
    , ledger_(std::exchange(other.ledger_, nullptr)) {}

AccountedBuffer& AccountedBuffer::operator=(AccountedBuffer&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::move(other.data_);
        size_ = std::exchange(other.size_, 0);
        tag_ = other.tag_;
        ledger_ = std::exchange(other.ledger_, nullptr);
    }
    return *this;
}

AccountedBuffer::~AccountedBuffer() {
    release();
}

void AccountedBuffer::release() {
    if (ledger_)
        ledger_->give(tag_, -4.0 * static_cast<double>(size_));
    data_.reset();
    size_ = 0;
    ledger_ = nullptr;
}

AccountedBuffer MemoryLedger::allocateFloats(MemoryTag tag, std::size_t count) {
    return charge(tag, std::make_unique<float[]>(count), count); // value-initialised: zeros
}

AccountedBuffer MemoryLedger::allocateFloatsForOverwrite(MemoryTag tag, std::size_t count) {
    return charge(tag, std::make_unique_for_overwrite<float[]>(count), count);
}

AccountedBuffer MemoryLedger::charge(MemoryTag tag, std::unique_ptr<float[]> data, std::size_t count) {
    AccountedBuffer buffer;
    buffer.data_ = std::move(data);
    buffer.size_ = count;
    buffer.tag_ = tag;
    buffer.ledger_ = this;
    give(tag, 4.0 * static_cast<double>(count));
    return buffer;
}

void MemoryLedger::give(MemoryTag tag, double bytes) {
    double& now = current_[index(tag)];
    now += bytes;
    peak_[index(tag)] = std::max(peak_[index(tag)], now);
    total_ += bytes;
    peakTotal_ = std::max(peakTotal_, total_);
    if (tag != MemoryTag::inputs && tag != MemoryTag::scratch) {
        step_ += bytes;
        peakStep_ = std::max(peakStep_, step_);
    }
}

double MemoryLedger::countedBytes() const {
    return currentBytes(MemoryTag::parameters) + currentBytes(MemoryTag::gradients) +
           currentBytes(MemoryTag::masterWeights) + currentBytes(MemoryTag::optimizerState) +
           currentBytes(MemoryTag::activations);
}

double MemoryLedger::totalBytes() const {
    double total = 0;
    for (double b : current_)
        total += b;
    return total;
}

} // namespace napkin

#include "engine/compute/memory_ledger.h"

#include "engine/numerics/name_table.h"

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
     {MemoryTag::masterWeights, "master_weights"}}};
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
    AccountedBuffer buffer;
    buffer.data_ = std::make_unique<float[]>(count); // value-initialised: zeros
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

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/activation_ledger_cache.h"

#include "engine/models/model_fingerprint.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace napkin {
namespace {

struct LedgerKey {
    ModelSpec model;
    StorageType activations = StorageType::fp32;
    std::optional<Recompute> recompute; ///< nullopt: the head's ledger
    std::uint64_t fingerprint = 0;      ///< modelFingerprint(model): compared before the whole spec
};

// The arguments of one ask, by reference: a hit copies nothing.
struct LedgerAsk {
    const ModelSpec& model;
    StorageType activations;
    std::optional<Recompute> recompute;
    std::uint64_t fingerprint;
    bool matches(const LedgerKey& key) const {
        return key.fingerprint == fingerprint && key.activations == activations &&
               key.recompute == recompute && key.model == model;
    }
};

// A search probes one model at several batches, and the timeline asks for it with 0 and 1 layers under two
// recompute modes; the fit advice then tries selective and full recompute and the parallel layouts, which
// with the stage's own model and head make about twenty ledgers (DeepSeek-V3 on one GPU). Least recently
// used first out, and the most recent looked at first, so a recompute's repeated asks hit at once.
class LedgerCache {
public:
    template <typename Build> SharedLedger get(const LedgerAsk& ask, Build build) {
        for (std::size_t i = 0; i < used_; ++i) {
            if (ask.matches(entries_[order_[i]].key)) {
                std::rotate(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(i),
                            order_.begin() + static_cast<std::ptrdiff_t>(i) + 1); // now the most recent
                return entries_[order_.front()].ledger;
            }
        }
        if (used_ < entries_.size())
            ++used_;
        // The least recently used slot (or a blank one) takes the new ledger and becomes the most recent.
        std::rotate(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(used_) - 1,
                    order_.begin() + static_cast<std::ptrdiff_t>(used_));
        Entry& slot = entries_[order_.front()];
        slot.key = {ask.model, ask.activations, ask.recompute, ask.fingerprint};
        slot.ledger = std::make_shared<const std::vector<ActivationTensor>>(build());
        return slot.ledger;
    }

private:
    static constexpr std::size_t kSlots = 32;
    struct Entry {
        LedgerKey key;
        SharedLedger ledger;
    };
    static std::array<std::uint8_t, kSlots> slotOrder() {
        std::array<std::uint8_t, kSlots> order{};
        for (std::size_t i = 0; i < kSlots; ++i)
            order[i] = static_cast<std::uint8_t>(i);
        return order;
    }
    std::array<Entry, kSlots> entries_;
    std::array<std::uint8_t, kSlots> order_ = slotOrder(); ///< slots, the most recently used first
    std::size_t used_ = 0;                                 ///< order_[0, used_) hold ledgers
};

LedgerCache& cache() {
    thread_local LedgerCache ledgers;
    return ledgers;
}

} // namespace

SharedLedger cachedLayerActivationLedger(const ModelSpec& model, StorageType activations,
                                         Recompute recompute) {
    return cache().get({model, activations, recompute, modelFingerprint(model)},
                       [&] { return layerActivationLedger(model, activations, recompute); });
}

SharedLedger cachedHeadActivationLedger(const ModelSpec& model, StorageType activations) {
    return cache().get({model, activations, std::nullopt, modelFingerprint(model)},
                       [&] { return headActivationLedger(model, activations); });
}

} // namespace napkin

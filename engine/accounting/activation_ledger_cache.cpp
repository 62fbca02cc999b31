#include "engine/accounting/activation_ledger_cache.h"

#include <array>
#include <cstddef>
#include <optional>

namespace napkin {
namespace {

struct LedgerKey {
    ModelSpec model;
    StorageType activations = StorageType::fp32;
    std::optional<Recompute> recompute; ///< nullopt: the head's ledger
    bool operator==(const LedgerKey&) const = default;
};

// A search probes one model at several batches, and the timeline asks for it with 0 and 1 layers under two
// recompute modes: eight entries hold one recompute's working set with room to spare.
class LedgerCache {
public:
    template <typename Build> SharedLedger get(const LedgerKey& key, Build build) {
        for (const Entry& e : entries_)
            if (e.ledger && e.key == key)
                return e.ledger;
        Entry& slot = entries_[next_];
        next_ = (next_ + 1) % entries_.size();
        slot.key = key;
        slot.ledger = std::make_shared<const std::vector<ActivationTensor>>(build());
        return slot.ledger;
    }

private:
    struct Entry {
        LedgerKey key;
        SharedLedger ledger;
    };
    std::array<Entry, 8> entries_;
    std::size_t next_ = 0;
};

LedgerCache& cache() {
    thread_local LedgerCache ledgers;
    return ledgers;
}

} // namespace

SharedLedger cachedLayerActivationLedger(const ModelSpec& model, StorageType activations,
                                         Recompute recompute) {
    return cache().get({model, activations, recompute},
                       [&] { return layerActivationLedger(model, activations, recompute); });
}

SharedLedger cachedHeadActivationLedger(const ModelSpec& model, StorageType activations) {
    return cache().get({model, activations, std::nullopt},
                       [&] { return headActivationLedger(model, activations); });
}

} // namespace napkin

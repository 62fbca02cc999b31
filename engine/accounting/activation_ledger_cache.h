// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The activation ledgers a recompute asks for again and again: account() and its searches evaluate the same
// model's layer ledger at every batch they probe (the ledger is per token, so the batch never changes it),
// and the memory timeline asks for the same model with one layer and with none. The ledger is a few dozen
// rows of names, so building it dominated a recompute; this keeps the last few, per thread.
#include "engine/accounting/activation_ledger.h"

#include <memory>
#include <vector>

namespace napkin {

using SharedLedger = std::shared_ptr<const std::vector<ActivationTensor>>;

/// layerActivationLedger(model, activations, recompute), built once per distinct arguments while they
/// are among this thread's last few.
SharedLedger cachedLayerActivationLedger(const ModelSpec& model, StorageType activations,
                                         Recompute recompute);
/// headActivationLedger(model, activations), likewise.
SharedLedger cachedHeadActivationLedger(const ModelSpec& model, StorageType activations);

} // namespace napkin
